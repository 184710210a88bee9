#pragma once
// Byte layout of one KV block on a CUDA stage (one contiguous unit, like the CPU's).
//
//   block = layer 0 [K rows][V rows][K scales][V scales], layer 1 ..., for this stage's layers
//   rows: kvHead-major, then the 16 slots: row (h, s) at (h * 16 + s) * rowBytes
//   F16: headDim halves; Q8_0: headDim/32 blocks of 34 bytes (byte-identical with the CPU's rows);
//   FP8 E4M3: headDim bytes, with one f32 scale per row in the scale areas (empty for F16 / Q8_0).
// Invariant: blockBytes() = nLayers * layerBytes(), every offset + its extent lies inside one
// layer, and scale areas are 4-byte aligned (row areas are multiples of 16 * rowBytes).

#include <cstdint>

#include "cuda/KernelParams.h"
#include "hearth/engine.h"

namespace hearth::cuda {

struct CudaKvLayout {
    int kind = kKvF16;
    uint32_t nLayers = 0, nKvHeads = 0, headDim = 0;

    static int kindOf(KvDType t) { return t == KvDType::F16 ? kKvF16 : (t == KvDType::Q8_0 ? kKvQ8_0 : kKvFP8); }
    uint64_t rowBytes() const {
        return kind == kKvF16 ? headDim * 2ull : (kind == kKvQ8_0 ? headDim / 32 * 34ull : headDim * 1ull);
    }
    uint64_t rowsBytes() const { return static_cast<uint64_t>(nKvHeads) * 16 * rowBytes(); }
    uint64_t scalesBytes() const { return kind == kKvFP8 ? static_cast<uint64_t>(nKvHeads) * 16 * 4 : 0; }
    uint64_t rowsAreaBytes() const { return (rowsBytes() + 3) / 4 * 4; }
    uint64_t layerBytes() const { return 2 * rowsAreaBytes() + 2 * scalesBytes(); }
    uint64_t blockBytes() const { return nLayers * layerBytes(); }
    uint64_t kOff(uint32_t layer) const { return layer * layerBytes(); }
    uint64_t vOff(uint32_t layer) const { return kOff(layer) + rowsAreaBytes(); }
    uint64_t kScaleOff(uint32_t layer) const { return kOff(layer) + 2 * rowsAreaBytes(); }
    uint64_t vScaleOff(uint32_t layer) const { return kScaleOff(layer) + scalesBytes(); }
};

}  // namespace hearth::cuda
