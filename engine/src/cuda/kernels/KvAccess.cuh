#pragma once
// Reading and writing one KV row (one position of one KV head, headDim values) in the cache's
// element kinds: f16; Q8_0 blocks of 32 (f16 scale amax/127, values rounded half away from zero,
// byte-identical with the CPU's KV rows); FP8 E4M3 with one f32 scale (amax/448) per row, kept in
// the block's scale area. Writers are warp-wide (one warp per row, values in shared memory).
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "cuda/KernelParams.h"

namespace hearth::cuda {

__device__ __forceinline__ float warpMax(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xFFFFFFFFu, v, o));
    return v;
}

__device__ __forceinline__ float fp8ToFloat(uint8_t b) {
    const __half_raw h = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(b), __NV_E4M3);
    return __half2float(__half(h));
}

// Warp-wide: x[0..D) (shared memory) into the row at `row`; `scale` is the row's FP8 scale slot.
__device__ __forceinline__ void storeKvRow(int kind, const float* x, int D, uint8_t* row, float* scale) {
    const int lane = threadIdx.x & 31;
    if (kind == kKvF16) {
        for (int d = lane; d < D; d += 32) reinterpret_cast<__half*>(row)[d] = __float2half_rn(x[d]);
    } else if (kind == kKvQ8_0) {
        for (int b = 0; b < D / 32; ++b) {
            const float v = x[b * 32 + lane];
            const float amax = warpMax(fabsf(v));
            const float d = __fdiv_rn(amax, 127.0f);
            const float id = d != 0.0f ? __fdiv_rn(1.0f, d) : 0.0f;
            uint8_t* blk = row + b * 34;
            if (lane == 0) *reinterpret_cast<__half*>(blk) = __float2half_rn(d);
            blk[2 + lane] = static_cast<uint8_t>(static_cast<int8_t>(roundf(__fmul_rn(v, id))));
        }
    } else {
        float amax = 0.f;
        for (int d = lane; d < D; d += 32) amax = fmaxf(amax, fabsf(x[d]));
        amax = warpMax(amax);
        const float s = amax / 448.0f;
        const float inv = s != 0.0f ? 1.0f / s : 0.0f;
        for (int d = lane; d < D; d += 32)
            row[d] = static_cast<uint8_t>(__nv_cvt_float_to_fp8(x[d] * inv, __NV_SATFINITE, __NV_E4M3));
        if (lane == 0) *scale = s;
    }
}

// Element d of a row.
template <int Kind>
__device__ __forceinline__ float loadKvElem(const uint8_t* row, int d, float rowScale) {
    if (Kind == kKvF16) return __half2float(reinterpret_cast<const __half*>(row)[d]);
    if (Kind == kKvQ8_0) {
        const uint8_t* blk = row + (d >> 5) * 34;
        return __half2float(*reinterpret_cast<const __half*>(blk)) * static_cast<float>(static_cast<int8_t>(blk[2 + (d & 31)]));
    }
    return fp8ToFloat(row[d]) * rowScale;
}

}  // namespace hearth::cuda
