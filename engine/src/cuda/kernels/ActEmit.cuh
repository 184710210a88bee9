#pragma once
// The last step of activation preparation, shared by the preparation kernel (ActPrep.cu) and the
// kernels that prepare their own output for the next matrix product (the tensor-core attention
// kernel): 8 values of a row, normalized already, in the format that product consumes (f32 / f16
// / bf16, or int8 with the Q8_0 / Q8_1 / Q8_K scales and sums, or those int8 values as f16).
//
// A warp calls it for 256 consecutive values (lane l: values e0 .. e0 + 7 with e0 = chunk start +
// 8 l); the whole warp takes part (shuffles). For the quantized formats the chunk is aligned to
// the row's quantization blocks (32 values, Q8_K: 256).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/KernelParams.h"

namespace hearth::cuda {

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
        if (p.outSum && p.fmt == kActQ8_K) reinterpret_cast<int*>(p.outSum)[unitBase + e0 / 32] = halfSums;
        else if (p.outSum) p.outSum[unitBase + e0 / 32] = sum;
    }
}

}  // namespace hearth::cuda
