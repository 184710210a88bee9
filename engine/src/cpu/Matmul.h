#pragma once
// Y = X · Wᵀ on the CPU straight from GGUF weight blocks (no dequantized copies of W).
//
// W is a GGUF weight tensor: `rows` rows (output features) of `cols` elements (input features),
// row-major, each row stored in W.type's block layout. X is nTokens × cols f32, Y is nTokens × rows
// f32 (both row-major, contiguous). Activations are converted once per call to the weight type's
// dot-product partner (Q8_0 / Q8_1 / Q8_K / F16 / BF16 / F32, as ggml pairs them), so results match
// llama.cpp's CPU numerics up to float summation order.

#include <cstdint>

#include "core/TensorType.h"
#include "cpu/ThreadPool.h"

namespace hearth::cpu {

struct WeightView {
    TensorType type = TensorType::F32;
    int64_t rows = 0;
    int64_t cols = 0;
    const void* data = nullptr;
};

// Scratch the call may use between calls to avoid allocating per token (grown on demand).
struct MatmulScratch {
    void* data = nullptr;
    uint64_t bytes = 0;
    ~MatmulScratch();
    void* reserve(uint64_t n);
};

void matmul(const WeightView& w, const float* x, int64_t nTokens, float* y, ThreadPool& pool, MatmulScratch& scratch);

// Whether matmul supports a weight type (the model loader refuses files with other types).
bool matmulSupports(TensorType t);

// One row of W, dequantized to f32 (embedding lookups).
void dequantizeRow(const WeightView& w, int64_t row, float* out);

}  // namespace hearth::cpu
