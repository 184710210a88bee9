#pragma once
// Reference quantization of activations into the dot-product partner types, in ggml's block
// formats, with the arithmetic of ggml's x86 CPU backend:
//   Q8_0 / Q8_1: d = amax / 127 (stored as half), q = round-half-even(x * (127 / amax)); Q8_1 also
//                stores s = half(d * sum(q)) with the unrounded d.
//   Q8_K:        iscale = -127 / (the element of largest magnitude, first one on ties), q =
//                min(127, round-half-even(iscale * x)), d = 1 / iscale (float), bsums per 16.
// An all-zero block gives d = 0 and q = 0. n must be a multiple of the block size.

#include <cstdint>

#include "quant/Blocks.h"

namespace hearth::quant {

void quantizeActQ8_0(const float* x, BlockQ8_0* y, int64_t n);
void quantizeActQ8_1(const float* x, BlockQ8_1* y, int64_t n);
void quantizeActQ8_K(const float* x, BlockQ8_K* y, int64_t n);

}  // namespace hearth::quant
