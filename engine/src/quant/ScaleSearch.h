#pragma once
// Scale searches shared by the weight quantizers (our own algorithms; see ScaleSearch.cpp).
//
// fitSymmetric: x[i] ~= scale * q[i] with integer q[i] in [qlo, qhi] (qlo < 0 < qhi), minimizing
// sum w[i] * (x[i] - scale * q[i])^2. Every rounding q = round(t * x) for t in a window of inverse
// scales around the "largest magnitude maps to the end of the range" choice is visited exactly
// (the scan walks the points where one q[i] changes), each scored with its least-squares scale.
// fitAffine: x[i] ~= scale * q[i] + offset with q[i] in [0, qmax], same objective; offset may be
// forced <= 0 (the k-quants store it as a subtracted unsigned min).
// Both return a result whose weighted error is never above that of the plain min/max quantizer, and
// an all-zero (or all-equal) input gives scale 0 with q = 0 (or q = 0, offset = the value).

#include <cstdint>

namespace hearth::quant {

// Round to nearest, ties to even (the FPU default); valid for |v| < 2^22.
inline int nearestInt(float v) {
    float r = v + 12582912.0f;  // 1.5 * 2^23: pushes the fraction out of the mantissa
    int32_t i;
    __builtin_memcpy(&i, &r, 4);
    return (i & 0x007FFFFF) - 0x00400000;
}

inline int clampInt(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// window: how far below the end of the range the scan goes, as a fraction of |qlo| (0 < window < 1).
float fitSymmetric(const float* x, const float* w, int n, int qlo, int qhi, float window, int8_t* q);

struct AffineFit {
    float scale = 0;
    float offset = 0;
};
AffineFit fitAffine(const float* x, const float* w, int n, int qmax, bool offsetNonPositive, uint8_t* q);

// How much each element's error counts in a search (the quantizers pick one per type).
enum class Weighting {
    Uniform,         // plain squared error
    RmsPlusAbs,      // rms + |x|: favours the larger weights, keeps the small ones in play
    Abs,             // |x|
    Square,          // x^2: close to "keep the largest values exact"
};
void importanceWeights(const float* x, int n, float rms, Weighting kind, float* w);
float rmsOf(const float* x, int n);
// w[i] *= importance[i] (a no-op for importance == nullptr).
inline void scaleByImportance(float* w, const float* importance, int n) {
    if (importance)
        for (int i = 0; i < n; ++i) w[i] *= importance[i];
}

// Weighted squared error of x against scale * q (+ offset).
float symmetricError(const float* x, const float* w, int n, float scale, const int8_t* q);
float affineError(const float* x, const float* w, int n, float scale, float offset, const uint8_t* q);

// Re-round q for a fixed scale (and offset), clamped to the range.
void roundSymmetric(const float* x, int n, float scale, int qlo, int qhi, int8_t* q);
void roundAffine(const float* x, int n, float scale, float offset, int qmax, uint8_t* q);

}  // namespace hearth::quant
