#include "cuda/StepMetadata.h"

#include <algorithm>
#include <cstring>

namespace hearth::cuda {
namespace {

uint64_t align16(uint64_t n) { return (n + 15) / 16 * 16; }

}  // namespace

StepShape StepMetadata::build(const ForwardBatch& b, int tileTokens, int padTo, std::span<const Backend::RowSampling> sampling) {
    StepShape sh;
    const int T = b.numTokens();
    const int pad = std::max(0, padTo - T);
    sh.realTokens = T;
    sh.tokens = T + pad;
    sh.seqs = static_cast<int>(b.seqs.size()) + pad;
    sh.realLogitRows = static_cast<int>(b.logitRows.size());
    sh.logitRows = sh.realLogitRows + pad;
    std::vector<AttnTile> tiles;
    std::vector<AttnSeq> seqs;
    for (size_t s = 0; s < b.seqs.size(); ++s) {
        const SeqSlice& q = b.seqs[s];
        seqs.push_back({q.tokenBegin, q.numTokens, q.startPos, q.blockBegin});
        for (int t = 0; t < q.numTokens; t += tileTokens)
            tiles.push_back({static_cast<int>(s), q.tokenBegin + t, std::min(tileTokens, q.numTokens - t)});
        sh.maxPosition = std::max(sh.maxPosition, q.startPos + q.numTokens - 1);
        sh.maxKeyBlocks = std::max(sh.maxKeyBlocks, (q.startPos + q.numTokens + kBlockSize - 1) / kBlockSize);
    }
    const int padBlock = static_cast<int>(b.blockTables.size());  // a block table entry 0 for padding
    for (int i = 0; i < pad; ++i) {
        seqs.push_back({T + i, 1, 0, padBlock});
        tiles.push_back({static_cast<int>(b.seqs.size()) + i, T + i, 1});
    }
    if (padTo > 0) {
        // A graph-sized step always has padTo sequences and padTo tiles, so every region sits at
        // the same offsets whatever the step's mix of sequences; the rest are empty sequences
        // (no tokens, no keys) and empty tiles over the last of them, which attention skips.
        while (static_cast<int>(seqs.size()) < padTo) seqs.push_back({sh.tokens, 0, 0, padBlock});
        while (static_cast<int>(tiles.size()) < padTo) tiles.push_back({static_cast<int>(seqs.size()) - 1, sh.tokens, 0});
    }
    sh.tiles = static_cast<int>(tiles.size());
    if (pad) sh.maxKeyBlocks = std::max(sh.maxKeyBlocks, 1);

    const uint64_t nTok = static_cast<uint64_t>(sh.tokens);
    offTokens_ = 0;
    offPos_ = align16(offTokens_ + nTok * 4);
    offSlot_ = align16(offPos_ + nTok * 4);
    offLogit_ = align16(offSlot_ + nTok * 4);
    offSeqs_ = align16(offLogit_ + static_cast<uint64_t>(sh.logitRows) * 4);
    offTiles_ = align16(offSeqs_ + seqs.size() * sizeof(AttnSeq));
    offSample_ = align16(offTiles_ + tiles.size() * sizeof(AttnTile));
    offBlocks_ = align16(offSample_ + static_cast<uint64_t>(sh.logitRows) * sizeof(SampleRow));
    used_ = offBlocks_ + (b.blockTables.size() + 1) * 4;
    if (staging_.size() < used_) staging_.resize(used_ * 2);
    uint8_t* base = staging_.data();
    auto* tok = reinterpret_cast<int32_t*>(base + offTokens_);
    auto* pos = reinterpret_cast<int32_t*>(base + offPos_);
    auto* slot = reinterpret_cast<int32_t*>(base + offSlot_);
    for (const SeqSlice& q : b.seqs)
        for (int i = 0; i < q.numTokens; ++i) {
            const int t = q.tokenBegin + i, p = q.startPos + i;
            tok[t] = b.tokens[static_cast<size_t>(t)];
            pos[t] = p;
            slot[t] = b.blockTables[static_cast<size_t>(q.blockBegin + p / kBlockSize)] * kBlockSize + p % kBlockSize;
        }
    for (int i = 0; i < pad; ++i) {
        tok[T + i] = 0;
        pos[T + i] = 0;
        slot[T + i] = -1;
    }
    auto* lr = reinterpret_cast<int32_t*>(base + offLogit_);
    for (int i = 0; i < sh.realLogitRows; ++i) lr[i] = b.logitRows[static_cast<size_t>(i)];
    for (int i = 0; i < pad; ++i) lr[sh.realLogitRows + i] = T + i;
    std::memcpy(base + offSeqs_, seqs.data(), seqs.size() * sizeof(AttnSeq));
    std::memcpy(base + offTiles_, tiles.data(), tiles.size() * sizeof(AttnTile));
    auto* sr = reinterpret_cast<SampleRow*>(base + offSample_);
    for (int i = 0; i < sh.logitRows; ++i) {
        SampleRow r{0.f, 1.f, 0.f, 0.f, 0, {-1, -1, -1, -1}};
        if (i < static_cast<int>(sampling.size())) {
            const auto& s = sampling[static_cast<size_t>(i)];
            static_assert(Backend::RowSampling::kMaxBanned == 4, "SampleRow::banned holds four ids");
            r = SampleRow{s.temperature, s.topP, s.minP, s.uniform, s.topK, {s.banned[0], s.banned[1], s.banned[2], s.banned[3]}};
        }
        sr[i] = r;
    }
    auto* bt = reinterpret_cast<int32_t*>(base + offBlocks_);
    std::memcpy(bt, b.blockTables.data(), b.blockTables.size() * 4);
    bt[b.blockTables.size()] = 0;
    return sh;
}

Status StepMetadata::upload(cudaStream_t stream, bool& moved) {
    moved = false;
    if (device_.size() < used_) {
        const uint64_t cap = std::max<uint64_t>(used_ * 2, 1 << 20);
        HEARTH_TRY(device_.allocate(cap, "step metadata"));
        HEARTH_TRY(host_.allocate(cap, "step metadata"));
        moved = true;
    }
    // The pinned copy may still be read by the previous step's transfer: the stage synchronizes
    // its stream at the end of every step, so it is free here.
    std::memcpy(host_.as<uint8_t>(), staging_.data(), used_);
    HEARTH_CUDA_TRY(cudaMemcpyAsync(device_.data(), host_.data(), used_, cudaMemcpyHostToDevice, stream));
    return Status::success();
}

}  // namespace hearth::cuda
