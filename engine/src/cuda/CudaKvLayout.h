#pragma once
// Byte layout of the KV pool of a CUDA stage: layer-major, so that one layer's blocks lie together.
//
//   pool  = layer 0 [block 0][block 1]..., layer 1 [block 0]..., for this stage's layers
//   a layer's part of a block = [K rows][V rows][K scales][V scales] (layerBytes())
//   rows: kvHead-major, then the 16 slots: row (h, s) at (h * 16 + s) * rowBytes
//   F16: headDim halves; Q8_0: headDim/32 blocks of 34 bytes (byte-identical with the CPU's rows);
//   FP8 E4M3: headDim bytes, with one f32 scale per row in the scale areas (empty for F16 / Q8_0).
// Why layer-major: a decode step's attention reads, per layer, a few kilobytes from each of the
// sequence's blocks; block-major, each of those reads was in a different 2 MiB unit (a page each).
// Layer-major they lie together. On the H200 this measured the same decode speed (batch-1 attention
// is bound by its kernels' serial latency, not by address translation), and the RAM tier's restore
// the same 51 GB/s: kept for the smaller TLB footprint. A block copied to or from the host is still
// one unit there, its layers in order: blockBytes() bytes (a strided copy on the device).
// Invariant: blockBytes() = nLayers * layerBytes(), every in-layer offset + its extent lies inside
// layerBytes(), and scale areas are 4-byte aligned (row areas are multiples of 16 * rowBytes).

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
    // Layer `layer`'s region in a pool of numBlocks blocks; block b's part at b * layerBytes() in it.
    uint64_t layerBase(uint32_t layer, uint32_t numBlocks) const { return static_cast<uint64_t>(layer) * numBlocks * layerBytes(); }
    // Offsets inside a block's layer part.
    uint64_t kOff() const { return 0; }
    uint64_t vOff() const { return rowsAreaBytes(); }
    uint64_t kScaleOff() const { return 2 * rowsAreaBytes(); }
    uint64_t vScaleOff() const { return kScaleOff() + scalesBytes(); }
};

}  // namespace hearth::cuda
