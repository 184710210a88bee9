#pragma once
// The per-step description a CUDA stage's kernels read, built on the host from a ForwardBatch and
// uploaded with one copy: token ids, positions and KV slots, logit rows, sequences, attention
// tiles, sampling settings and the flattened block tables.
//
// Invariants: regions are packed in that order at 16-byte aligned offsets that depend only on the
// counts (tokens, sequences, tiles, logit rows), so a step padded to a graph size always puts every
// region at the same device address (what a captured CUDA graph relies on): it has exactly padTo
// tokens, sequences, tiles and logit rows. Padding tokens have slot -1 (no KV write), their own
// one-token sequence over block table entry 0, and greedy sampling; padding sequences and tiles
// beyond those are empty (no tokens, no keys).

#include <cstdint>
#include <span>
#include <vector>

#include "backend/Backend.h"
#include "cuda/DeviceBuffer.h"
#include "cuda/KernelParams.h"

namespace hearth::cuda {

struct StepShape {
    int tokens = 0;       // including padding
    int realTokens = 0;
    int seqs = 0, tiles = 0, logitRows = 0, realLogitRows = 0;
    int maxPosition = 0;  // largest position any token sits at
    int maxKeyBlocks = 0; // largest number of KV blocks a tile reads
};

class StepMetadata {
public:
    // tileTokens: tokens per attention tile (32 / GQA group). padTo >= batch tokens pads a step
    // whose every token is a logit row (decode, speculative verification) to that size.
    StepShape build(const ForwardBatch& b, int tileTokens, int padTo, std::span<const Backend::RowSampling> sampling);
    // Copies to the device (growing the device buffer when needed; returns whether it moved).
    Status upload(cudaStream_t stream, bool& moved);

    const int32_t* tokens() const { return dev<int32_t>(offTokens_); }
    const int32_t* positions() const { return dev<int32_t>(offPos_); }
    const int32_t* slots() const { return dev<int32_t>(offSlot_); }
    const int32_t* logitRows() const { return dev<int32_t>(offLogit_); }
    const AttnSeq* seqs() const { return dev<AttnSeq>(offSeqs_); }
    const AttnTile* tiles() const { return dev<AttnTile>(offTiles_); }
    const SampleRow* sampling() const { return dev<SampleRow>(offSample_); }
    const int32_t* blockTables() const { return dev<int32_t>(offBlocks_); }
    uint64_t bytes() const { return device_.size() + host_.size(); }

private:
    template <typename T>
    const T* dev(uint64_t off) const { return reinterpret_cast<const T*>(device_.as<uint8_t>() + off); }

    std::vector<uint8_t> staging_;
    PinnedBuffer host_;
    DeviceBuffer device_;
    uint64_t used_ = 0;
    uint64_t offTokens_ = 0, offPos_ = 0, offSlot_ = 0, offLogit_ = 0, offSeqs_ = 0, offTiles_ = 0, offSample_ = 0,
             offBlocks_ = 0;
};

}  // namespace hearth::cuda
