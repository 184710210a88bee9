#include "backend/Backend.h"

#include <string>

namespace hearth {

int32_t ForwardBatch::addSequence(const std::vector<TokenId>& sliceTokens, int32_t startPos,
                                  const std::vector<int32_t>& blockTable, bool allLogits, bool lastLogit) {
    SeqSlice s;
    s.tokenBegin = numTokens();
    s.numTokens = static_cast<int32_t>(sliceTokens.size());
    s.startPos = startPos;
    s.blockBegin = static_cast<int32_t>(blockTables.size());
    s.blockCount = static_cast<int32_t>(blockTable.size());
    tokens.insert(tokens.end(), sliceTokens.begin(), sliceTokens.end());
    blockTables.insert(blockTables.end(), blockTable.begin(), blockTable.end());
    for (int32_t i = 0; i < s.numTokens; ++i)
        if (allLogits || (lastLogit && i == s.numTokens - 1)) logitRows.push_back(s.tokenBegin + i);
    seqs.push_back(s);
    return static_cast<int32_t>(seqs.size() - 1);
}

Status ForwardBatch::validate(uint32_t numPhysicalBlocks, uint32_t vocab) const {
    int32_t next = 0;
    for (size_t i = 0; i < seqs.size(); ++i) {
        const auto& s = seqs[i];
        const std::string where = "forward batch sequence " + std::to_string(i);
        if (s.numTokens <= 0 || s.tokenBegin != next)
            return makeError(ErrorCode::Internal, where + ": slices must be non-empty and contiguous");
        next += s.numTokens;
        if (s.startPos < 0 || s.blockBegin < 0 || s.blockCount < 0 ||
            static_cast<size_t>(s.blockBegin) + s.blockCount > blockTables.size())
            return makeError(ErrorCode::Internal, where + ": block table out of range");
        if (static_cast<int64_t>(s.blockCount) * kBlockSize < static_cast<int64_t>(s.startPos) + s.numTokens)
            return makeError(ErrorCode::Internal, where + ": block table does not cover its positions");
        for (int32_t b = 0; b < s.blockCount; ++b) {
            const int32_t id = blockTables[s.blockBegin + b];
            if (id < 0 || static_cast<uint32_t>(id) >= numPhysicalBlocks)
                return makeError(ErrorCode::Internal, where + ": block id " + std::to_string(id) + " out of range");
        }
    }
    if (next != numTokens()) return makeError(ErrorCode::Internal, "forward batch: slices do not cover all tokens");
    for (size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] < 0 || static_cast<uint32_t>(tokens[i]) >= vocab)
            return makeError(ErrorCode::InvalidArgument, "token id " + std::to_string(tokens[i]) + " is out of the vocabulary");
    for (size_t i = 0; i < logitRows.size(); ++i)
        if (logitRows[i] < 0 || logitRows[i] >= numTokens() || (i && logitRows[i] <= logitRows[i - 1]))
            return makeError(ErrorCode::Internal, "forward batch: logit rows must be ascending token indices");
    return Status::success();
}

}  // namespace hearth
