#pragma once
// The dense weight types of the matrix-vector kernels (DenseGemv.cu, DenseStreamGemv.cu): F32, F16
// and BF16 by GGUF type id, as 16-byte vectors of kPerVec values unpacked to f32, or one value.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace hearth::cuda {

template <int TT> struct Dense;
template <> struct Dense<0> {
    static constexpr int kPerVec = 4;
    __device__ static void unpack(const int4& v, float* f) {
        f[0] = __int_as_float(v.x); f[1] = __int_as_float(v.y); f[2] = __int_as_float(v.z); f[3] = __int_as_float(v.w);
    }
    __device__ static float one(const void* p, int64_t i) { return static_cast<const float*>(p)[i]; }
};
template <> struct Dense<1> {
    static constexpr int kPerVec = 8;
    __device__ static void unpack(const int4& v, float* f) {
        const __half2* h = reinterpret_cast<const __half2*>(&v);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 x = __half22float2(h[i]);
            f[2 * i] = x.x; f[2 * i + 1] = x.y;
        }
    }
    __device__ static float one(const void* p, int64_t i) { return __half2float(static_cast<const __half*>(p)[i]); }
};
template <> struct Dense<30> {
    static constexpr int kPerVec = 8;
    __device__ static void unpack(const int4& v, float* f) {
        const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&v);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 x = __bfloat1622float2(h[i]);
            f[2 * i] = x.x; f[2 * i + 1] = x.y;
        }
    }
    __device__ static float one(const void* p, int64_t i) { return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]); }
};

}  // namespace hearth::cuda
