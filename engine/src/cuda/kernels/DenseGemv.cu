// Matrix-vector products for F32 / F16 / BF16 weights and up to 8 tokens (more in slices of 8). The activations come in
// the weight's own type (the CPU rounds them the same way), products are summed in f32. Rows are
// read with 16-byte loads when their byte length allows it.
#include "cuda/kernels/DenseTypes.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

// Staged (GemvParams::stageInput; one token, 16-byte rows, 2-byte types): the CTA copies the
// token's input row to shared memory once and reads it there instead of from L1 (same values, same
// order: same results). H200, llama8b F16 batch 1, A/B in one call: 222.4 / 222.2 against 216.1 /
// 217.2 tok/s, and 221.4 against 216.9 on another machine. The k-quant kernel staging its int8
// inputs the same way was slower (431.7 / 431.4 against 443.1 / 440.6 tok/s, Q4_K_M).
template <int TT, int MaxT, bool Staged = false>
__global__ void __launch_bounds__(128) denseGemvKernel(const GemvParams p) {
    using D = Dense<TT>;
    constexpr int kEl = TT == 0 ? 4 : 2;  // bytes per element
    const int lane = threadIdx.x & 31;
    const GemvRows r = gemvRows(p);
    const int tBase = static_cast<int>(blockIdx.y) * MaxT;  // this CTA's slice of the tokens
    const int T = min(MaxT, p.T - tBase);
    float acc[2][MaxT];
    gemvZero(acc);

    const bool vec = p.copyWidth >= 16 && (p.cols % D::kPerVec) == 0;
    const int nv = vec ? p.cols / D::kPerVec : 0;
    // 16-byte loads in flight per row and lane (8 measured slower on the H200: 184 vs 196 tok/s
    // batch-1 decode of the F16 8B model).
    constexpr int kBatch = 4;
    // The first loads of the weight rows into L2 while the previous kernel finishes (weights only).
#pragma unroll
    for (int s = 0; s < 2; ++s)
#pragma unroll
        for (int j = 0; j < kBatch; ++j)
            if (r.ok[s] && lane + 32 * j < nv)
                asm volatile("prefetch.global.L2 [%0];\n" ::"l"(reinterpret_cast<const int4*>(r.w[s] + r.row[s] * p.rowBytes) + lane + 32 * j));
    pdlWait();
    pdlTrigger();
    const int4* actRow = reinterpret_cast<const int4*>(p.actDense);
    if constexpr (Staged) {
        extern __shared__ int4 xs[];
        const int4* src = actRow + static_cast<int64_t>(tBase) * nv;
        for (int i = threadIdx.x; i < nv; i += 128) xs[i] = src[i];
        __syncthreads();
        actRow = xs;
    }
    for (int base = lane; base < nv; base += 32 * kBatch) {
        int4 wv[2][kBatch];
#pragma unroll
        for (int s = 0; s < 2; ++s)
#pragma unroll
            for (int j = 0; j < kBatch; ++j) {
                const int i = base + 32 * j;
                wv[s][j] = (r.ok[s] && i < nv) ? __ldg(reinterpret_cast<const int4*>(r.w[s] + r.row[s] * p.rowBytes) + i)
                                               : make_int4(0, 0, 0, 0);
            }
#pragma unroll
        for (int j = 0; j < kBatch; ++j) {
            const int i = base + 32 * j;
            if (i >= nv) break;
            float w[2][D::kPerVec];
#pragma unroll
            for (int s = 0; s < 2; ++s) D::unpack(wv[s][j], w[s]);
            // All MaxT tokens, with no exit (see KQuantGemv.cu): a token past T recomputes the last.
#pragma unroll
            for (int t = 0; t < MaxT; ++t) {
                const int64_t tok = min(tBase + t, p.T - 1);
                // A plain (coherent) load: written by the kernel before this one (Launch.cuh).
                const int4 av = Staged ? actRow[i]
                                       : reinterpret_cast<const int4*>(static_cast<const uint8_t*>(p.actDense) +
                                                                       tok * p.cols * kEl)[i];
                float a[D::kPerVec];
                D::unpack(av, a);
#pragma unroll
                for (int s = 0; s < 2; ++s) {
                    if (!r.ok[s]) continue;
#pragma unroll
                    for (int k = 0; k < D::kPerVec; ++k) acc[s][t] = fmaf(w[s][k], a[k], acc[s][t]);
                }
            }
        }
    }
    for (int i = nv * D::kPerVec + lane; i < p.cols; i += 32) {  // rows not 16-byte aligned, or a tail
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (!r.ok[s]) continue;
            const float w = D::one(r.w[s] + r.row[s] * p.rowBytes, i);
#pragma unroll
            for (int t = 0; t < MaxT; ++t) {
                if (t >= T) break;
                acc[s][t] = fmaf(w, D::one(p.actDense, static_cast<int64_t>(tBase + t) * p.cols + i), acc[s][t]);
            }
        }
    }
    gemvEpilogue<MaxT>(p, r, acc, tBase, T);
}

template <int TT>
cudaError_t launchDense(const GemvParams& p, int grid, cudaStream_t s) {
    const int per = gemvTokensPerCta(p, grid);
    if constexpr (TT != 0) {
        cudaError_t err = cudaSuccess;
        if (launchDenseStreamGemv(p, grid, s, err)) return err;
    }
    if (p.fusedPrep)
        if (const cudaError_t err = launchActPrep(p.prep, s); err != cudaSuccess) return err;
    if constexpr (TT != 0) {
        const int rowBytes = p.cols * 2;
        if (p.stageInput && per == 1 && p.T == 1 && p.copyWidth >= 16 && rowBytes % 16 == 0 && rowBytes <= 48 * 1024)
            return launchKernel(denseGemvKernel<TT, 1, true>, dim3(grid, 1), 128, rowBytes, s, p);
    }
    const GemvKernel k = gemvKernelFor(per, denseGemvKernel<TT, 1>, denseGemvKernel<TT, 2>, denseGemvKernel<TT, 4>,
                                       denseGemvKernel<TT, kGemvMaxT>);
    return launchKernel(k, dim3(grid, (p.T + per - 1) / per), 128, 0, s, p);
}

}  // namespace

cudaError_t launchDenseGemv(const GemvParams& p, int grid, cudaStream_t s) {
    switch (p.type) {
        case 0: return launchDense<0>(p, grid, s);
        case 1: return launchDense<1>(p, grid, s);
        case 30: return launchDense<30>(p, grid, s);
        default: return cudaErrorInvalidValue;
    }
}

}  // namespace hearth::cuda
