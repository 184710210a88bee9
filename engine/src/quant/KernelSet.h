#pragma once
// One variant (scalar, AVX2, AVX-512) of the CPU matmul kernels: for each weight type, how to
// quantize activations into that type's dot-product partner and how to compute a tile of
// Y = X * W^T straight from the weight blocks.
//
// Invariants: a variant owns its activation format (actBytes/quantizeAct/tile of one TypeKernels
// always belong together); activation values equal ggml's for the partner type (Q8_0, Q8_1, Q8_K,
// F16, BF16, F32) bit for bit, and every tile computes ggml's per-block formula with exact integer
// sums inside blocks, so variants differ only in float summation order. quantizeAct == nullptr
// means the tile reads the f32 activations directly. tile() handles any nRows >= 1, nTok >= 1,
// with or without work space, and gives the same results either way.

#include <cstdint>

#include "core/TensorType.h"

namespace hearth::quant {

struct TileArgs {
    const uint8_t* w = nullptr;    // weight row 0 of the tile
    uint64_t wStride = 0;          // bytes between weight rows
    const uint8_t* act = nullptr;  // activation row of token 0 of the tile
    uint64_t actStride = 0;        // bytes between tokens' activation rows
    int64_t cols = 0;              // elements per row (a multiple of the weight block size)
    int nRows = 0, nTok = 0;
    float* y = nullptr;            // y[t * ldy + r]
    int64_t ldy = 0;
    uint8_t* work = nullptr;       // the calling worker's own scratch (workBytes(cols) bytes), or nullptr
    uint64_t workBytes = 0;
};

struct TypeKernels {
    uint64_t (*actBytes)(int64_t cols) = nullptr;  // a multiple of 64
    void (*quantizeAct)(const float* x, int64_t cols, void* act) = nullptr;
    void (*tile)(const TileArgs& a) = nullptr;
    // Per-worker scratch a tile may use (unpacked weight panels for prefill); nullptr: none. A
    // tile given less (or no) work space still computes, just without the panel.
    uint64_t (*workBytes)(int64_t cols) = nullptr;
    bool supported() const { return tile != nullptr; }
};

// Weight types with kernels, in table order.
constexpr TensorType kKernelTypes[] = {
    TensorType::F32,  TensorType::F16,  TensorType::BF16, TensorType::Q4_0, TensorType::Q4_1,
    TensorType::Q5_0, TensorType::Q5_1, TensorType::Q8_0, TensorType::Q2_K, TensorType::Q3_K,
    TensorType::Q4_K, TensorType::Q5_K, TensorType::Q6_K,
};
constexpr int kNumKernelTypes = sizeof(kKernelTypes) / sizeof(kKernelTypes[0]);
inline int kernelIndex(TensorType t) {
    for (int i = 0; i < kNumKernelTypes; ++i)
        if (kKernelTypes[i] == t) return i;
    return -1;
}

struct KernelSet {
    const char* name = "";
    TypeKernels types[kNumKernelTypes];
    const TypeKernels* find(TensorType t) const {
        const int i = kernelIndex(t);
        return i >= 0 && types[i].supported() ? &types[i] : nullptr;
    }
};

// The variants. A SIMD variant returns nullptr when it was not compiled in or the CPU lacks it.
const KernelSet* scalarKernels();
const KernelSet* avx2Kernels();
const KernelSet* avx512Kernels();

// The best variant this CPU runs (AVX-512 > AVX2 > scalar), chosen once. The environment variable
// HEARTH_CPU_KERNELS=scalar|avx2|avx512 caps the choice (benchmarks, debugging).
const KernelSet& activeKernels();

}  // namespace hearth::quant
