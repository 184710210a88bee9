#pragma once
// Byte layout of one KV block on the CPU.
//
// A block holds kBlockSize positions of every layer's K and V:
//   block = layer 0 [K: head 0 slots 0..15, head 1 ...][V: same] , layer 1 ..., layer L-1
// One "row" is one position of one KV head (headDim elements) in the KV dtype: F16 (2 bytes each)
// or Q8_0 (headDim/32 blocks of 34 bytes). Invariant: blockBytes() = nLayers * layerBytes(), and all
// offsets below lie inside [0, blockBytes()), so a block is one contiguous, self-contained chunk.

#include <cstdint>

#include "backend/ForwardBatch.h"
#include "hearth/engine.h"

namespace hearth::cpu {

struct KvLayout {
    KvDType dtype = KvDType::F16;
    uint32_t nLayers = 0, nKvHeads = 0, headDim = 0;

    uint64_t rowBytes() const { return dtype == KvDType::Q8_0 ? headDim / 32 * 34ull : headDim * 2ull; }
    uint64_t halfLayerBytes() const { return static_cast<uint64_t>(nKvHeads) * kBlockSize * rowBytes(); }
    uint64_t layerBytes() const { return 2 * halfLayerBytes(); }
    uint64_t blockBytes() const { return nLayers * layerBytes(); }
    uint64_t kOffset(uint32_t layer, uint32_t head, uint32_t slot) const {
        return layer * layerBytes() + (static_cast<uint64_t>(head) * kBlockSize + slot) * rowBytes();
    }
    uint64_t vOffset(uint32_t layer, uint32_t head, uint32_t slot) const {
        return kOffset(layer, head, slot) + halfLayerBytes();
    }
};

}  // namespace hearth::cpu
