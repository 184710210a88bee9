#pragma once
// Quantization of f32 data into GGUF tensor types (the weight quantizers).
//
// Invariants: n is a multiple of the type's block size; dst receives exactly rowBytes(type, n)
// bytes, and dequantize(type, dst) reproduces x within the type's quantization error. The searches
// (ScaleSearch.h) never do worse, in their weighted squared error, than the plain min/max quantizer
// they start from. Deterministic: the same input always gives the same bytes.

#include <cstdint>

#include "core/TensorType.h"

namespace hearth::quant {

// F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K.
bool canQuantize(TensorType t);

// Returns false (and writes nothing) for an unsupported type or an n that is not a block multiple.
bool quantize(TensorType t, const float* x, void* dst, int64_t n);

// Per-type entry points (n a multiple of the block size).
void quantizeQ4_0(const float* x, void* dst, int64_t n);
void quantizeQ4_1(const float* x, void* dst, int64_t n);
void quantizeQ5_0(const float* x, void* dst, int64_t n);
void quantizeQ5_1(const float* x, void* dst, int64_t n);
void quantizeQ8_0(const float* x, void* dst, int64_t n);
void quantizeQ2_K(const float* x, void* dst, int64_t n);
void quantizeQ3_K(const float* x, void* dst, int64_t n);
void quantizeQ4_K(const float* x, void* dst, int64_t n);
void quantizeQ5_K(const float* x, void* dst, int64_t n);
void quantizeQ6_K(const float* x, void* dst, int64_t n);

}  // namespace hearth::quant
