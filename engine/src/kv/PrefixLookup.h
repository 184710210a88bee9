#pragma once
// The result of a prefix-cache lookup (data only): which leading full blocks of a request are
// already cached and where, plus an optional swapped-out partial tail block.
//
// Invariants: blocks[i] holds block i of the request (a contiguous run from block 0); Device
// entries come first and no Device entry follows a Ram or Disk one (a copy-in that fails must
// leave only fresh, writable blocks after it); tailTokens > 0 only when tailSlot >= 0, and then
// the lookup covers blocks.size() * kBlockSize + tailTokens tokens.

#include <cstdint>
#include <vector>

#include "backend/ForwardBatch.h"
#include "kv/Hash128.h"

namespace hearth {

enum class CacheTier : uint8_t { Device, Ram, Disk };

struct CachedBlockRef {
    CacheTier tier = CacheTier::Device;
    Hash128 hash;
    int32_t deviceBlock = -1;  // for Device hits
};

struct PrefixLookup {
    std::vector<CachedBlockRef> blocks;
    int32_t tailSlot = -1;     // RAM private slot with the partial block that follows
    int32_t tailTokens = 0;

    int32_t numTokens() const { return static_cast<int32_t>(blocks.size()) * kBlockSize + tailTokens; }
    int32_t count(CacheTier t) const {
        int32_t n = 0;
        for (const auto& b : blocks) n += b.tier == t;
        return n;
    }
};

}  // namespace hearth
