// Fused dequantize + tensor-core matrix product for quantized weights and 9..64 tokens (batched
// decode), so the weights are read once per step in their GGUF form instead of being expanded to
// f16 in memory for cuBLAS. The numerics are the cuBLAS path's: weights dequantized to f16 exactly
// as the dequantization kernel does, inputs as the same f16 values (LinearOps' FQ8 formats), f32
// accumulation (mma.sync m16n8k16, sm_80+).
//
// A CTA (4 warps) owns 64 weight rows and every token; each K step of 256 elements copies the
// rows' raw bytes and the tokens' inputs to shared memory (cp.async), dequantizes the weights to
// an f16 tile, and runs the MMAs (warp w: rows 16w..16w+15, all token tiles). The K range is split
// over gridDim.y CTAs when there are few rows; partial sums are then added in split order by
// splitReduceKernel, so results never depend on timing.
#include <cuda_fp16.h>

#include <algorithm>

#include "cuda/KernelParams.h"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {
namespace {

constexpr int kBM = 64, kBK = 256, kLd = kBK + 8;  // f16 tile rows are padded: conflict-free fragment loads

template <int TT> struct MmaShape {
    static constexpr int kSpan = kBK / QType<TT>::kElems * QType<TT>::kBytes;  // bytes of a row's K step
    static constexpr int kRawLd = (kSpan + 16 + 15) / 16 * 16;                  // + room for a 16-byte aligned start
};

__device__ __forceinline__ void cpAsync16(void* dst, const void* src) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src));
}
__device__ __forceinline__ uint32_t lds32(const __half* p) { return *reinterpret_cast<const uint32_t*>(p); }

__device__ __forceinline__ void mma16816(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                         uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

template <int TT>
__global__ void __launch_bounds__(128) quantMmaKernel(const MmaParams p) {
    using Q = QType<TT>;
    using S = MmaShape<TT>;
    extern __shared__ __align__(16) uint8_t smem[];
    uint8_t* raw = smem;                                                       // [kBM][kRawLd]
    __half* Ws = reinterpret_cast<__half*>(smem + kBM * S::kRawLd);           // [kBM][kLd]
    __half* Xs = Ws + kBM * kLd;                                               // [nPad][kLd]
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int g = lane >> 2, tg = lane & 3;
    const int rowBase = blockIdx.x * kBM;
    const int nTiles = (p.T + 7) / 8, nPad = nTiles * 8;
    const int kSteps = p.cols / kBK;
    const int ks0 = static_cast<int>(static_cast<int64_t>(kSteps) * blockIdx.y / gridDim.y);
    const int ks1 = static_cast<int>(static_cast<int64_t>(kSteps) * (blockIdx.y + 1) / gridDim.y);

    for (int i = tid; i < (nPad - p.T) * kLd; i += blockDim.x) Xs[p.T * kLd + i] = __float2half(0.f);
    float acc[8][4];
#pragma unroll
    for (int n = 0; n < 8; ++n)
#pragma unroll
        for (int k = 0; k < 4; ++k) acc[n][k] = 0.f;

    constexpr int kChunks = S::kRawLd / 16;
    for (int ks = ks0; ks < ks1; ++ks) {
        for (int task = tid; task < kBM * kChunks; task += blockDim.x) {
            const int r = task / kChunks, c = task - r * kChunks;
            const int row = rowBase + r;
            if (row >= p.rows) continue;
            const uint64_t start = static_cast<uint64_t>(row) * p.rowBytes + static_cast<uint64_t>(ks) * S::kSpan;
            const uint64_t a0 = start & ~15ull;
            if (a0 + 16ull * c < start + S::kSpan) cpAsync16(raw + r * S::kRawLd + 16 * c, p.w + a0 + 16ull * c);
        }
        for (int task = tid; task < p.T * (kBK / 8); task += blockDim.x) {
            const int t = task / (kBK / 8), c = task - t * (kBK / 8);
            cpAsync16(Xs + t * kLd + 8 * c, p.x + static_cast<int64_t>(t) * p.cols + ks * kBK + 8 * c);
        }
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();
        for (int task = tid; task < kBM * (kBK / 32); task += blockDim.x) {
            const int r = task / (kBK / 32), u = task - r * (kBK / 32);
            const int row = rowBase + r;
            __half* dst = Ws + r * kLd + u * 32;
            float v[32];
            if (row < p.rows) {
                const uint64_t start = static_cast<uint64_t>(row) * p.rowBytes + static_cast<uint64_t>(ks) * S::kSpan;
                const uint8_t* base = raw + r * S::kRawLd + (start & 15ull);
                const int e = u * 32;
                Unit un;
                Q::unit(base + (e / Q::kElems) * Q::kBytes, (e % Q::kElems) / 32, un);
                unitValues<Q::kKind>(un, v);
            } else {
#pragma unroll
                for (int i = 0; i < 32; ++i) v[i] = 0.f;
            }
#pragma unroll
            for (int i = 0; i < 32; i += 8) {
                __half2 h[4];
#pragma unroll
                for (int k = 0; k < 4; ++k) h[k] = __floats2half2_rn(v[i + 2 * k], v[i + 2 * k + 1]);
                *reinterpret_cast<int4*>(dst + i) = *reinterpret_cast<const int4*>(h);
            }
        }
        __syncthreads();
        const __half* A = Ws + warp * 16 * kLd;
#pragma unroll 4
        for (int kk = 0; kk < kBK; kk += 16) {
            const uint32_t a0 = lds32(A + g * kLd + kk + tg * 2);
            const uint32_t a1 = lds32(A + (g + 8) * kLd + kk + tg * 2);
            const uint32_t a2 = lds32(A + g * kLd + kk + 8 + tg * 2);
            const uint32_t a3 = lds32(A + (g + 8) * kLd + kk + 8 + tg * 2);
#pragma unroll
            for (int nt = 0; nt < 8; ++nt) {
                if (nt >= nTiles) break;
                const __half* B = Xs + (nt * 8 + g) * kLd + kk + tg * 2;
                mma16816(acc[nt], a0, a1, a2, a3, lds32(B), lds32(B + 8));
            }
        }
        __syncthreads();
    }

    const bool direct = gridDim.y == 1;
#pragma unroll
    for (int nt = 0; nt < 8; ++nt) {
        if (nt >= nTiles) break;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int row = rowBase + warp * 16 + g + (k >= 2 ? 8 : 0);
            const int t = nt * 8 + tg * 2 + (k & 1);
            if (row >= p.rows || t >= p.T) continue;
            if (direct) {
                float* y = p.y + static_cast<int64_t>(t) * p.ldy + row;
                *y = p.accumulate ? *y + acc[nt][k] : acc[nt][k];
            } else {
                p.partial[(static_cast<int64_t>(blockIdx.y) * p.T + t) * p.rows + row] = acc[nt][k];
            }
        }
    }
}

__global__ void splitReduceKernel(const MmaParams p, int splits) {
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= static_cast<int64_t>(p.T) * p.rows) return;
    const int t = static_cast<int>(idx / p.rows), r = static_cast<int>(idx % p.rows);
    float s = 0.f;
    for (int k = 0; k < splits; ++k) s += p.partial[(static_cast<int64_t>(k) * p.T + t) * p.rows + r];
    float* y = p.y + static_cast<int64_t>(t) * p.ldy + r;
    *y = p.accumulate ? *y + s : s;
}

template <int TT>
size_t smemFor(int T) {
    return static_cast<size_t>(kBM) * MmaShape<TT>::kRawLd + static_cast<size_t>(kBM) * kLd * 2 +
           static_cast<size_t>((T + 7) / 8 * 8) * kLd * 2;
}

template <int TT>
cudaError_t launchType(const MmaParams& p, int splits, cudaStream_t s) {
    const dim3 grid((p.rows + kBM - 1) / kBM, splits);
    quantMmaKernel<TT><<<grid, 128, smemFor<TT>(p.T), s>>>(p);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || splits == 1) return e;
    const int64_t n = static_cast<int64_t>(p.T) * p.rows;
    splitReduceKernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(p, splits);
    return cudaGetLastError();
}

template <int TT>
cudaError_t prepareType(int optin) {
    const size_t need = smemFor<TT>(kMmaMaxT);
    if (need > static_cast<size_t>(optin)) return cudaErrorInvalidConfiguration;
    return cudaFuncSetAttribute(quantMmaKernel<TT>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(need));
}

}  // namespace

cudaError_t prepareQuantMma(int sharedOptin) {
    for (cudaError_t e : {prepareType<2>(sharedOptin), prepareType<3>(sharedOptin), prepareType<6>(sharedOptin),
                          prepareType<7>(sharedOptin), prepareType<8>(sharedOptin), prepareType<10>(sharedOptin),
                          prepareType<11>(sharedOptin), prepareType<12>(sharedOptin), prepareType<13>(sharedOptin),
                          prepareType<14>(sharedOptin)})
        if (e != cudaSuccess) return e;
    return cudaSuccess;
}

int quantMmaSplits(int rows, int cols, int multiProcessors) {
    const int rowTiles = (rows + kBM - 1) / kBM, kSteps = cols / kBK;
    int splits = (2 * multiProcessors + rowTiles - 1) / rowTiles;
    return std::max(1, std::min(splits, std::min(kSteps, 32)));
}

cudaError_t launchQuantMma(const MmaParams& p, int splits, cudaStream_t s) {
    if (p.T < 1 || p.T > kMmaMaxT || p.cols % kBK != 0) return cudaErrorInvalidValue;
    switch (p.type) {
        case 2: return launchType<2>(p, splits, s);
        case 3: return launchType<3>(p, splits, s);
        case 6: return launchType<6>(p, splits, s);
        case 7: return launchType<7>(p, splits, s);
        case 8: return launchType<8>(p, splits, s);
        case 10: return launchType<10>(p, splits, s);
        case 11: return launchType<11>(p, splits, s);
        case 12: return launchType<12>(p, splits, s);
        case 13: return launchType<13>(p, splits, s);
        case 14: return launchType<14>(p, splits, s);
        default: return cudaErrorInvalidValue;
    }
}

}  // namespace hearth::cuda
