#pragma once
// One row's activation preparation by one CTA (ActPrep.cu): shared by the preparation kernel and
// the streamed dense matrix-vector kernel, which prepares its own input rows (DenseStreamGemv.cu). The
// order of every sum is fixed whatever the CTA size, so the two prepare a row bit-identically.
//
// Optional RMSNorm (as the CPU computes it: squares summed in double, scale 1/sqrt(mean + eps),
// (x * scale) * w), then conversion to what the next matrix multiply consumes: f32 / f16 / bf16
// values, or int8 blocks as the CPU quantizes activations for quantized weights (Q8_0 and Q8_1: 32
// values with scale amax/127 stored as f16; Q8_K: 256 values with the signed scale max/-127 of the
// largest-magnitude value), or those int8 values written back as f16 for the cuBLAS path (so
// prefill sees the same rounding of its inputs as decode does).
//
// A warp handles 256-element chunks, 8 elements per lane. The sum of squares has one canonical
// order whatever the CTA size: a chunk's 256 squares are summed per lane (8 in order), then over
// the warp by an xor tree; the chunk sums per lane of one warp (chunks l, l + 32, ... in order),
// then by an xor tree.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/KernelParams.h"

namespace hearth::cuda {


inline constexpr int kActChunk = 256;          // values per warp chunk
inline constexpr int kActMaxChunks = 256;      // rows of up to 65536 values

// The 8 values of this lane in chunk c of row x (zeros past n).
__device__ __forceinline__ void loadActChunk(const float* x, int n, int c, bool vec, float (&v)[8]) {
    const int e0 = c * kActChunk + (threadIdx.x & 31) * 8;
    if (vec && e0 + 8 <= n) {
        const float4 a = *reinterpret_cast<const float4*>(x + e0), b = *reinterpret_cast<const float4*>(x + e0 + 4);
        v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
        v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
    } else {
#pragma unroll
        for (int k = 0; k < 8; ++k) v[k] = e0 + k < n ? x[e0 + k] : 0.f;
    }
}

// The sum of squares of one chunk (this lane's 8 values v, in order, then the warp's xor tree);
// every lane gets it.
__device__ __forceinline__ double chunkSquares(const float (&v)[8]) {
    double s = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) s += static_cast<double>(__fmul_rn(v[k], v[k]));
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xFFFFFFFFu, s, o);
    return s;
}

// Called by warp 0 once sums[c] holds chunk c's squares: the row's total into sums[kActMaxChunks].
// Lane l adds chunks l, l + 32, ... in order, then the lanes by an xor tree: the same order for
// every CTA size, and a few dependent adds instead of one per chunk (one thread adding the 16
// chunk sums of a 4096-wide row in turn was a serial stretch of each preparation).
__device__ __forceinline__ void chunkSquaresTotal(double* sums, int nChunks) {
    const int lane = threadIdx.x & 31;
    double s = 0;
    for (int c = lane; c < nChunks; c += 32) s += sums[c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xFFFFFFFFu, s, o);
    if (lane == 0) sums[kActMaxChunks] = s;
}

__device__ __forceinline__ float rmsScaleOf(double squares, int n, float eps) {
    return __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(static_cast<float>(squares / static_cast<double>(n)), eps)));
}

// 1/sqrt(mean(x²) + eps) of row x (n values), computed by a CTA of kThreads; every thread gets it.
// Shared scratch: sums [kActMaxChunks + 1] doubles.
template <int kThreads>
__device__ float rmsScale(const float* x, int n, float eps, bool vec, double* sums) {
    const int warp = threadIdx.x >> 5, nChunks = (n + kActChunk - 1) / kActChunk;
    for (int c = warp; c < nChunks; c += kThreads / 32) {
        float v[8];
        loadActChunk(x, n, c, vec, v);
        const double s = chunkSquares(v);
        if ((threadIdx.x & 31) == 0) sums[c] = s;
    }
    __syncthreads();
    if (warp == 0) chunkSquaresTotal(sums, nChunks);
    __syncthreads();
    const double s = sums[kActMaxChunks];
    __syncthreads();  // the scratch may be reused right after
    return rmsScaleOf(s, n, eps);
}

// The chunk of 8 values at e0 (normalized already) into the output format.
__device__ __forceinline__ void emitChunk(const ActPrepParams& p, int e0, const float (&y)[8], int64_t outBase,
                                          int64_t unitBase) {
    const int n = p.cols, lane = threadIdx.x & 31;
    if (p.fmt == kActF32 || p.fmt == kActF16 || p.fmt == kActBF16) {
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const int e = e0 + k;
            if (e >= n) continue;
            if (p.fmt == kActF32) p.outF32[outBase + e] = y[k];
            else if (p.fmt == kActF16) static_cast<__half*>(p.outHalf)[outBase + e] = __float2half_rn(y[k]);
            else static_cast<__nv_bfloat16*>(p.outHalf)[outBase + e] = __float2bfloat16_rn(y[k]);
        }
        return;
    }
    // Quantized formats: the row length is a multiple of 32 (Q8_K: 256), so a lane's 8 values
    // never straddle the row end; the whole warp takes part in the shuffles.
    const bool active = e0 < n;
    int q[8];
    float dUse = 0.f, sum = 0.f;
    int halfSums = 0;  // Q8_K: sums of q over the unit's lower and upper 16 values (lane 0 of 4)
    if (p.fmt == kActQ8_K || p.fmt == kActFQ8_K) {
        // The largest magnitude (first one on ties) with its sign, over the warp's 256 values.
        float amax = 0.f, vmax = 0.f;
        int imax = 0x7FFFFFFF;
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const float a = fabsf(y[k]);
            if (active && a > amax) { amax = a; vmax = y[k]; imax = e0 + k; }
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float a2 = __shfl_xor_sync(0xFFFFFFFFu, amax, o);
            const float v2 = __shfl_xor_sync(0xFFFFFFFFu, vmax, o);
            const int i2 = __shfl_xor_sync(0xFFFFFFFFu, imax, o);
            if (a2 > amax || (a2 == amax && i2 < imax)) { amax = a2; vmax = v2; imax = i2; }
        }
        if (amax == 0.f) {
#pragma unroll
            for (int k = 0; k < 8; ++k) q[k] = 0;
        } else {
            const float iscale = __fdiv_rn(-127.f, vmax);
#pragma unroll
            for (int k = 0; k < 8; ++k) q[k] = min(127, __float2int_rn(__fmul_rn(iscale, y[k])));
            dUse = __fdiv_rn(1.f, iscale);
        }
        int s8 = 0;
#pragma unroll
        for (int k = 0; k < 8; ++k) s8 += q[k];
        const int s16 = s8 + __shfl_xor_sync(0xFFFFFFFFu, s8, 1);
        const int upper = __shfl_xor_sync(0xFFFFFFFFu, s16, 2);
        halfSums = static_cast<int>((static_cast<uint32_t>(s16) & 0xFFFFu) | (static_cast<uint32_t>(upper) << 16));
    } else {
        // Blocks of 32 = 4 lanes.
        float amax = 0.f;
#pragma unroll
        for (int k = 0; k < 8; ++k) amax = fmaxf(amax, fabsf(y[k]));
        amax = fmaxf(amax, __shfl_xor_sync(0xFFFFFFFFu, amax, 1));
        amax = fmaxf(amax, __shfl_xor_sync(0xFFFFFFFFu, amax, 2));
        const float d = __fdiv_rn(amax, 127.f);
        const float id = d != 0.f ? __fdiv_rn(1.f, d) : 0.f;
        int isum = 0;
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            q[k] = __float2int_rn(__fmul_rn(y[k], id));
            isum += q[k];
        }
        isum += __shfl_xor_sync(0xFFFFFFFFu, isum, 1);
        isum += __shfl_xor_sync(0xFFFFFFFFu, isum, 2);
        dUse = __half2float(__float2half_rn(d));
        sum = __half2float(__float2half_rn(__fmul_rn(d, static_cast<float>(isum))));
    }
    if (!active) return;
    if (p.fmt >= kActFQ8_0) {
        if (p.mmaUnitOrder) {
            // This lane's values are elements 8t..8t+7 of their unit: pair j to 8j + 2t.
            __half* o = static_cast<__half*>(p.outHalf) + outBase + (e0 & ~31) + 2 * (lane & 3);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                *reinterpret_cast<__half2*>(o + 8 * j) =
                    __floats2half2_rn(__fmul_rn(static_cast<float>(q[2 * j]), dUse), __fmul_rn(static_cast<float>(q[2 * j + 1]), dUse));
        } else {
            __half* o = static_cast<__half*>(p.outHalf) + outBase + e0;
#pragma unroll
            for (int k = 0; k < 8; ++k) o[k] = __float2half_rn(__fmul_rn(static_cast<float>(q[k]), dUse));
        }
        if (!p.outUnitSum) return;
    }
    uint32_t w0 = 0, w1 = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        w0 |= (static_cast<uint32_t>(q[k]) & 0xFFu) << (8 * k);
        w1 |= (static_cast<uint32_t>(q[k + 4]) & 0xFFu) << (8 * k);
    }
    *reinterpret_cast<uint2*>(p.outQ + outBase + e0) = make_uint2(w0, w1);
    if ((lane & 3) == 0) {
        p.outScale[unitBase + e0 / 32] = dUse;
        if (p.outUnitSum) {
            // FQ8_K for the integer tensor-core kernel: the unit's whole sum, times the scale.
            const int lower = static_cast<int16_t>(halfSums & 0xFFFF), upper = halfSums >> 16;
            p.outUnitSum[unitBase + e0 / 32] = __float2half_rn(__fmul_rn(dUse, static_cast<float>(lower + upper)));
        }
        if (p.outSum && p.fmt == kActQ8_K) reinterpret_cast<int*>(p.outSum)[unitBase + e0 / 32] = halfSums;
        else if (p.outSum) p.outSum[unitBase + e0 / 32] = sum;
    }
}

// Row x of p (cols values) into p's outputs at outBase / unitBase, by a CTA of kThreads.
template <int kThreads>
__device__ void prepareRow(const ActPrepParams& p, const float* x, int64_t outBase, int64_t unitBase, double* sums) {
    const int n = p.cols;
    const bool vec = (p.ldx & 3) == 0 && (reinterpret_cast<uintptr_t>(x) & 15) == 0;  // 16-byte aligned rows
    const float scale = p.normW ? rmsScale<kThreads>(x, n, p.eps, vec, sums) : 1.f;
    const int warp = threadIdx.x >> 5, nChunks = (n + kActChunk - 1) / kActChunk;
    for (int c = warp; c < nChunks; c += kThreads / 32) {
        const int e0 = c * kActChunk + (threadIdx.x & 31) * 8;
        float y[8];
        loadActChunk(x, n, c, vec, y);
        if (p.normW) {
#pragma unroll
            for (int k = 0; k < 8; ++k)
                if (e0 + k < n) y[k] = __fmul_rn(__fmul_rn(y[k], scale), p.normW[e0 + k]);
        }
        emitChunk(p, e0, y, outBase, unitBase);
    }
}

}  // namespace hearth::cuda
