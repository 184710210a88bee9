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
// F16 and BF16: 8 values a vector, as 4 pairs (T2) of the 2-byte type T.
__device__ __forceinline__ float2 pairToFloat2(__half2 h) { return __half22float2(h); }
__device__ __forceinline__ float2 pairToFloat2(__nv_bfloat162 h) { return __bfloat1622float2(h); }
__device__ __forceinline__ float toFloat(__half h) { return __half2float(h); }
__device__ __forceinline__ float toFloat(__nv_bfloat16 h) { return __bfloat162float(h); }
template <typename T, typename T2>
struct DenseHalfPairs {
    static constexpr int kPerVec = 8;
    __device__ static void unpack(const int4& v, float* f) {
        const T2* h = reinterpret_cast<const T2*>(&v);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 x = pairToFloat2(h[i]);
            f[2 * i] = x.x; f[2 * i + 1] = x.y;
        }
    }
    __device__ static float one(const void* p, int64_t i) { return toFloat(static_cast<const T*>(p)[i]); }
};
template <> struct Dense<1> : DenseHalfPairs<__half, __half2> {};
template <> struct Dense<30> : DenseHalfPairs<__nv_bfloat16, __nv_bfloat162> {};

}  // namespace hearth::cuda
