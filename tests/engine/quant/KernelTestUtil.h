#pragma once
// Helpers for the kernel tests: random data (never all zeros), quantized weights, and running one
// kernel variant over a whole matrix.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/TensorType.h"
#include "quant/Dequantize.h"
#include "quant/KernelSet.h"
#include "quant/Quantize.h"

namespace hearth::test {

inline std::vector<float> randomFloats(size_t n, uint32_t seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    // A few outliers, as real weights and activations have.
    for (size_t i = 0; i < n; i += 97) v[i] *= 4.0f;
    return v;
}

struct Weights {
    TensorType type;
    int64_t rows, cols;
    uint64_t rowBytes;
    std::vector<uint8_t> bytes;
    std::vector<double> dequantized;  // rows x cols
};

inline Weights makeWeights(TensorType t, int64_t rows, int64_t cols, uint32_t seed) {
    Weights w{t, rows, cols, *hearth::rowBytes(t, static_cast<uint64_t>(cols)), {}, {}};
    const auto x = randomFloats(static_cast<size_t>(rows * cols), seed, 0.05f);
    w.bytes.resize(w.rowBytes * static_cast<uint64_t>(rows) + 64);  // slack: SIMD loads never read past, but be safe
    std::vector<float> row(static_cast<size_t>(cols));
    for (int64_t r = 0; r < rows; ++r) {
        quant::quantize(t, x.data() + r * cols, w.bytes.data() + r * w.rowBytes, cols);
        quant::dequantize(t, w.bytes.data() + r * w.rowBytes, row.data(), cols);
        for (float v : row) w.dequantized.push_back(v);
    }
    return w;
}

// Y (nTok x rows) from one variant's kernels.
inline std::vector<float> runVariant(const quant::TypeKernels& k, const uint8_t* w, uint64_t wStride, int64_t rows,
                                     int64_t cols, const std::vector<float>& x, int64_t nTok, bool withWork = false) {
    std::vector<uint8_t> act;
    quant::TileArgs a;
    a.w = w, a.wStride = wStride, a.cols = cols, a.nRows = static_cast<int>(rows), a.nTok = static_cast<int>(nTok);
    if (k.quantizeAct) {
        a.actStride = k.actBytes(cols);
        act.resize(a.actStride * static_cast<uint64_t>(nTok));
        for (int64_t t = 0; t < nTok; ++t) k.quantizeAct(x.data() + t * cols, cols, act.data() + t * a.actStride);
        a.act = act.data();
    } else {
        a.act = reinterpret_cast<const uint8_t*>(x.data());
        a.actStride = static_cast<uint64_t>(cols) * 4;
    }
    std::vector<float> y(static_cast<size_t>(rows * nTok), NAN);
    a.y = y.data(), a.ldy = rows;
    std::vector<uint8_t> work;
    if (withWork && k.workBytes) {
        a.workBytes = k.workBytes(cols);
        work.resize(a.workBytes + 64);
        a.work = work.data() + (64 - reinterpret_cast<uintptr_t>(work.data()) % 64) % 64;
    }
    k.tile(a);
    return y;
}

inline std::vector<const quant::KernelSet*> availableVariants() {
    std::vector<const quant::KernelSet*> v{quant::scalarKernels()};
    if (auto* k = quant::avx2Kernels()) v.push_back(k);
    if (auto* k = quant::avx512Kernels()) v.push_back(k);
    return v;
}

}  // namespace hearth::test
