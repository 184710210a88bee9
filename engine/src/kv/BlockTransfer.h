#pragma once
// Batches block copies between the backend's KV pool and scattered host buffers (RAM-tier slots,
// disk reads) through one packed staging buffer, so a backend whose calls are expensive (a GPU:
// one transfer each) moves a group of blocks per call instead of one.
//
// Invariants: the staging buffer never exceeds maxStagingBytes (at least one block); a group of one
// block is copied directly, without staging; blocks[i] pairs with host[i].

#include <cstdint>
#include <span>
#include <vector>

#include "backend/Backend.h"

namespace hearth {

class BlockTransfer {
public:
    BlockTransfer(Backend& backend, uint64_t blockBytes, uint64_t maxStagingBytes = 64ull << 20);

    // Blocks per call at most (the caller may pass more; they are split).
    size_t groupSize() const { return group_; }
    Status toHost(std::span<const int32_t> blocks, std::span<uint8_t* const> host);
    Status fromHost(std::span<const int32_t> blocks, std::span<const uint8_t* const> host);

private:
    Backend& backend_;
    uint64_t blockBytes_;
    size_t group_;
    std::vector<uint8_t> staging_;
};

}  // namespace hearth
