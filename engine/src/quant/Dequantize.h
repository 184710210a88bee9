#pragma once
// Reference dequantization of one run of elements of any supported tensor type to f32.
//
// Invariants: n is a multiple of the type's block size and src holds exactly rowBytes(type, n)
// bytes; the arithmetic per element is ggml's (same operations in the same order), so results are
// bit-identical to ggml's dequantize_row_* for every block.

#include <cstdint>

#include "core/TensorType.h"

namespace hearth::quant {

// Whether dequantize() handles the type: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1,
// Q2_K..Q6_K and Q8_K.
bool canDequantize(TensorType t);

// Returns false (and writes nothing) when the type is unsupported or n is not a block multiple.
bool dequantize(TensorType t, const void* src, float* dst, int64_t n);

}  // namespace hearth::quant
