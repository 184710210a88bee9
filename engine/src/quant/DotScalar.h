#pragma once
// Reference dot products of one weight row with one activation row, in ggml's block formats
// (the scalar kernel variant and the yardstick for the SIMD ones).
//
// Per block the formula is ggml's: an exact integer sum of products inside the block (or
// sub-block), scaled by the product of the float scales, e.g. Q4_0: (d_w * d_x) * sum((q - 8) * qx);
// Q4_1: (d_w * d_x) * sum(q * qx) + m_w * s_x; k-quants: (d_x * d_w) * sum_j(scale_j * isum_j)
// - (d_x * dmin_w) * sum_j(min_j * bsum_j). Blocks are summed in order in float; F16/BF16/F32
// rows are summed in double. `act` points to the partner type's blocks (Q8_0 for Q4_0, Q5_0 and
// Q8_0; Q8_1 for Q4_1 and Q5_1; Q8_K for the k-quants; f16 for F16; bf16 for BF16; f32 for F32).

#include <cstdint>

#include "core/TensorType.h"

namespace hearth::quant {

using DotFn = float (*)(const void* w, const void* act, int64_t n);

// nullptr for a type without a scalar dot product.
DotFn scalarDot(TensorType weightType);

}  // namespace hearth::quant
