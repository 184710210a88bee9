#include "pipeline/MicroBatch.h"

#include <algorithm>

namespace hearth {

std::vector<MicroBatch> splitMicroBatches(const ForwardBatch& b, int parts) {
    const int nSeq = static_cast<int>(b.seqs.size());
    parts = std::max(1, std::min(parts, nSeq));
    std::vector<MicroBatch> out;
    const int64_t total = b.numTokens();
    size_t row = 0;
    int s = 0;
    for (int p = 0; p < parts; ++p) {
        MicroBatch mb;
        mb.firstLogitRow = static_cast<int32_t>(row);
        // Close this part once it holds its share of the tokens, leaving a sequence for each later part.
        const int64_t target = total * (p + 1) / parts;
        while (s < nSeq) {
            const SeqSlice& src = b.seqs[s];
            SeqSlice d = src;
            d.tokenBegin = mb.batch.numTokens();
            d.blockBegin = static_cast<int32_t>(mb.batch.blockTables.size());
            mb.batch.tokens.insert(mb.batch.tokens.end(), b.tokens.begin() + src.tokenBegin,
                                   b.tokens.begin() + src.tokenBegin + src.numTokens);
            mb.batch.blockTables.insert(mb.batch.blockTables.end(), b.blockTables.begin() + src.blockBegin,
                                        b.blockTables.begin() + src.blockBegin + src.blockCount);
            while (row < b.logitRows.size() && b.logitRows[row] < src.tokenBegin + src.numTokens) {
                mb.batch.logitRows.push_back(b.logitRows[row] - src.tokenBegin + d.tokenBegin);
                ++row;
            }
            mb.batch.seqs.push_back(d);
            ++s;
            const bool lastPart = p == parts - 1;
            if (!lastPart && (src.tokenBegin + src.numTokens >= target || nSeq - s <= parts - p - 1)) break;
        }
        out.push_back(std::move(mb));
    }
    return out;
}

}  // namespace hearth
