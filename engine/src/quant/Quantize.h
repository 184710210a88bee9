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
// importance (optional, n values >= 0) says how much each element's error counts relative to the
// others (e.g. the squared norm gain in front of each input column); it multiplies the searches'
// own weighting. F32/F16/BF16 ignore it.
bool quantize(TensorType t, const float* x, void* dst, int64_t n, const float* importance = nullptr);

// Per-type entry points (n a multiple of the block size; importance as above, or nullptr).
void quantizeQ4_0(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ4_1(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ5_0(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ5_1(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ8_0(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ2_K(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ3_K(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ4_K(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ5_K(const float* x, void* dst, int64_t n, const float* importance = nullptr);
void quantizeQ6_K(const float* x, void* dst, int64_t n, const float* importance = nullptr);

}  // namespace hearth::quant
