// Dequantization of weight rows: to f32 for embedding lookups (bit-exact with the CPU's
// dequantizeRow), and to f16 for the cuBLAS path of prefill-sized batches. One thread per
// 32-element unit.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/KernelParams.h"
#include "cuda/kernels/Launch.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {
namespace {

template <typename Out> __device__ __forceinline__ Out fromFloat(float v);
template <> __device__ __forceinline__ float fromFloat<float>(float v) { return v; }

template <int TT, typename Out>
__global__ void dequantKernel(const uint8_t* w, int64_t rowBytes, int cols, const int32_t* rowIndex, int64_t rowBegin,
                              int nRows, Out* out) {
    using Q = QType<TT>;
    pdlWait();
    pdlTrigger();
    const int unitsPerRow = cols / 32;
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= static_cast<int64_t>(nRows) * unitsPerRow) return;
    const int r = static_cast<int>(idx / unitsPerRow), u = static_cast<int>(idx % unitsPerRow);
    const int64_t src = rowIndex ? rowIndex[r] : rowBegin + r;
    const int e0 = u * 32;
    const uint8_t* blk = w + src * rowBytes + static_cast<int64_t>(e0 / Q::kElems) * Q::kBytes;
    Unit un;
    Q::unit(blk, (e0 % Q::kElems) / 32, un);
    float v[32];
    unitValues<Q::kKind>(un, v);
    Out* o = out + static_cast<int64_t>(r) * cols + e0;
    if constexpr (sizeof(Out) == 2) {
        // 16-byte stores: 8 halves at a time (rows of cols % 32 == 0 keep them aligned).
#pragma unroll
        for (int i = 0; i < 32; i += 8) {
            __half2 h[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) h[k] = __floats2half2_rn(v[i + 2 * k], v[i + 2 * k + 1]);
            *reinterpret_cast<int4*>(o + i) = *reinterpret_cast<const int4*>(h);
        }
    } else if constexpr (sizeof(Out) == 4) {
        // 16-byte stores (rows of cols % 32 == 0 keep them aligned): a lane's 128 bytes in 8 stores,
        // not 32 (the embedding lookup of a verification step's 8 tokens took 6.9 us with scalar ones).
#pragma unroll
        for (int i = 0; i < 32; i += 4) *reinterpret_cast<float4*>(o + i) = make_float4(v[i], v[i + 1], v[i + 2], v[i + 3]);
    } else {
#pragma unroll
        for (int i = 0; i < 32; ++i) o[i] = fromFloat<Out>(v[i]);
    }
}

// Dense weights to f32 (embedding rows of F32 / F16 / BF16 tables).
template <int TT>
__global__ void denseRowsKernel(const uint8_t* w, int64_t rowBytes, int cols, const int32_t* rowIndex, int64_t rowBegin,
                                float* out) {
    pdlWait();
    pdlTrigger();
    const int r = blockIdx.x;
    const int64_t src = rowIndex ? rowIndex[r] : rowBegin + r;
    const uint8_t* row = w + src * rowBytes;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) {
        float v;
        if (TT == 0) v = reinterpret_cast<const float*>(row)[i];
        else if (TT == 1) v = __half2float(reinterpret_cast<const __half*>(row)[i]);
        else v = __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(row)[i]);
        out[static_cast<int64_t>(r) * cols + i] = v;
    }
}

template <int TT>
cudaError_t launchQuant(const uint8_t* w, int64_t rowBytes, int cols, const int32_t* rowIndex, int64_t rowBegin, int nRows,
                        void* out, bool toHalf, cudaStream_t s) {
    const int64_t units = static_cast<int64_t>(nRows) * (cols / 32);
    const int threads = units <= 4096 ? 32 : 128;  // few rows (embedding lookups): spread over SMs
    const unsigned grid = static_cast<unsigned>((units + threads - 1) / threads);
    if (toHalf)
        return launchKernel(dequantKernel<TT, __half>, grid, threads, 0, s, w, rowBytes, cols, rowIndex, rowBegin, nRows,
                            static_cast<__half*>(out));
    return launchKernel(dequantKernel<TT, float>, grid, threads, 0, s, w, rowBytes, cols, rowIndex, rowBegin, nRows,
                        static_cast<float*>(out));
}

}  // namespace

bool dequantSupports(int type) { return gemvSupports(type); }

cudaError_t launchDequantRows(int type, const uint8_t* w, int64_t rowBytes, int cols, const int32_t* rowIndex,
                              int64_t rowBegin, int nRows, void* out, bool toHalf, cudaStream_t s) {
    if (nRows <= 0) return cudaSuccess;
    if (type == 0 || type == 1 || type == 30) {
        if (toHalf) return cudaErrorInvalidValue;  // dense weights go to cuBLAS as they are
        float* o = static_cast<float*>(out);
        auto* k = type == 0 ? denseRowsKernel<0> : (type == 1 ? denseRowsKernel<1> : denseRowsKernel<30>);
        return launchKernel(k, nRows, 256, 0, s, w, rowBytes, cols, rowIndex, rowBegin, o);
    }
    switch (type) {
        case 2: return launchQuant<2>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 3: return launchQuant<3>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 6: return launchQuant<6>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 7: return launchQuant<7>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 8: return launchQuant<8>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 10: return launchQuant<10>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 11: return launchQuant<11>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 12: return launchQuant<12>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 13: return launchQuant<13>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        case 14: return launchQuant<14>(w, rowBytes, cols, rowIndex, rowBegin, nRows, out, toHalf, s);
        default: return cudaErrorInvalidValue;
    }
}

}  // namespace hearth::cuda
