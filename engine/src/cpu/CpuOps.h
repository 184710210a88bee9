#pragma once
// Element-wise and row-wise operations of the transformer forward pass on the CPU, with the
// numerics llama.cpp's CPU backend uses (so greedy outputs agree): RMSNorm accumulates squares in
// double and scales by 1/sqrtf(mean + eps) before the weight multiply; RoPE angles advance by
// repeated float multiplication by base^(-2/d); SiLU is x / (1 + expf(-x)); softmax sums in double.

#include <cstdint>

#include "model/ModelConfig.h"

namespace hearth::cpu {

// out[i] = x[i] * scale * w[i] with scale = 1/sqrt(mean(x^2) + eps); out may alias x. w may be null.
void rmsNorm(const float* x, const float* w, int64_t n, float eps, float* out);

// cos/sin for one position: pairs = ropeDims/2 values each. freqFactors may be null.
void ropeAngles(float pos, const ModelConfig& c, const float* freqFactors, float* cosOut, float* sinOut);

// Rotate one head vector in place with precomputed angles.
void applyRope(float* head, const ModelConfig& c, const float* cosv, const float* sinv);

// g[i] = silu(g[i]) * u[i]
void siluMul(float* g, const float* u, int64_t n);

void addInPlace(float* x, const float* y, int64_t n);

// In-place softmax over n scores already scaled; returns nothing, the sum is computed in double.
void softmax(float* x, int64_t n);

// f16 -> f32 through a 64K-entry table (exact).
const float* f16Table();

}  // namespace hearth::cpu
