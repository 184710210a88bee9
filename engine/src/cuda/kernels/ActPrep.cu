// Activation preparation: optional RMSNorm (as the CPU computes it: squares summed in double, scale
// 1/sqrt(mean + eps), (x * scale) * w), then conversion to what the next matrix multiply consumes:
// f32 / f16 / bf16 values, or int8 blocks as the CPU quantizes activations for quantized weights
// (Q8_0 and Q8_1: 32 values with scale amax/127 stored as f16; Q8_K: 256 values with the signed
// scale max/-127 of the largest-magnitude value), or those int8 values written back as f16 for the
// cuBLAS path (so prefill sees the same rounding of its inputs as decode does).
//
// One CTA per output row; each warp handles 256-element chunks, 8 elements per lane.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/KernelParams.h"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

template <int kThreads>
__device__ __forceinline__ double blockSumD(double v, double* red) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) red[warp] = v;
    __syncthreads();
    double s = 0;
    for (int i = 0; i < kThreads / 32; ++i) s += red[i];
    __syncthreads();
    return s;
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
        __half* o = static_cast<__half*>(p.outHalf) + outBase + e0;
#pragma unroll
        for (int k = 0; k < 8; ++k) o[k] = __float2half_rn(__fmul_rn(static_cast<float>(q[k]), dUse));
        return;
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
        if (p.outSum) p.outSum[unitBase + e0 / 32] = sum;
    }
}

// Rows up to kThreads * 8 * kChunks values are read once into registers; longer rows twice.
template <int kThreads, int kChunks>
__global__ void __launch_bounds__(kThreads) actPrepKernel(const ActPrepParams p) {
    __shared__ double red[kThreads / 32];
    pdlWait();
    pdlTrigger();
    const int r = blockIdx.x;
    const int64_t srcRow = p.rowIndex ? p.rowIndex[r] : r;
    const float* x = p.x + srcRow * p.ldx;
    const int n = p.cols;
    constexpr int kStride = kThreads * 8;  // a warp's chunk is 256 consecutive values
    const bool inRegs = n <= kStride * kChunks;
    float v[kChunks][8];
    double s = 0;
    const bool vec = (p.ldx & 3) == 0;  // rows start 16-byte aligned: two float4 loads per chunk
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const int e0 = c * kStride + threadIdx.x * 8;
        if (inRegs && vec && e0 + 8 <= n) {
            const float4 a = *reinterpret_cast<const float4*>(x + e0), b = *reinterpret_cast<const float4*>(x + e0 + 4);
            v[c][0] = a.x; v[c][1] = a.y; v[c][2] = a.z; v[c][3] = a.w;
            v[c][4] = b.x; v[c][5] = b.y; v[c][6] = b.z; v[c][7] = b.w;
        } else {
#pragma unroll
            for (int k = 0; k < 8; ++k) v[c][k] = (inRegs && e0 + k < n) ? x[e0 + k] : 0.f;
        }
    }
    if (p.normW) {
        if (inRegs) {
#pragma unroll
            for (int c = 0; c < kChunks; ++c)
#pragma unroll
                for (int k = 0; k < 8; ++k) s += static_cast<double>(__fmul_rn(v[c][k], v[c][k]));
        } else {
            for (int i = threadIdx.x; i < n; i += kThreads) s += static_cast<double>(__fmul_rn(x[i], x[i]));
        }
        s = blockSumD<kThreads>(s, red);
    }
    const float scale = p.normW ? __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(static_cast<float>(s / static_cast<double>(n)), p.eps))) : 1.f;
    const int64_t outBase = static_cast<int64_t>(r) * n;
    const int64_t unitBase = static_cast<int64_t>(r) * (n / 32);
    const int nChunks = (n + kStride - 1) / kStride;
    for (int c = 0; c < nChunks; ++c) {
        const int e0 = c * kStride + threadIdx.x * 8;
        float y[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            float val = 0.f;
            if (inRegs) {
#pragma unroll
                for (int cc = 0; cc < kChunks; ++cc)
                    if (cc == c) val = v[cc][k];
            } else if (e0 + k < n) {
                val = x[e0 + k];
            }
            if (p.normW && e0 + k < n) val = __fmul_rn(__fmul_rn(val, scale), p.normW[e0 + k]);
            y[k] = val;
        }
        emitChunk(p, e0, y, outBase, unitBase);
    }
}

__global__ void copyRowsKernel(float* dst, const float* src, const int32_t* rowIndex, int cols) {
    pdlWait();
    pdlTrigger();
    const int r = blockIdx.x;
    const float* s = src + static_cast<int64_t>(rowIndex[r]) * cols;
    float* d = dst + static_cast<int64_t>(r) * cols;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) d[i] = s[i];
}

}  // namespace

cudaError_t launchActPrep(const ActPrepParams& p, cudaStream_t s) {
    if (p.rows <= 0) return cudaSuccess;
    // Few rows (decode): a wide CTA per row, since the rows run one after another on few SMs.
    if (p.rows <= 16) return launchKernel(actPrepKernel<1024, 2>, p.rows, 1024, 0, s, p);
    return launchKernel(actPrepKernel<256, 8>, p.rows, 256, 0, s, p);
}

cudaError_t launchCopyRows(float* dst, const float* src, const int32_t* rowIndex, int rows, int cols, cudaStream_t s) {
    if (rows <= 0) return cudaSuccess;
    return launchKernel(copyRowsKernel, rows, 256, 0, s, dst, src, rowIndex, cols);
}

}  // namespace hearth::cuda
