// Activation preparation launches: a CTA per row (ActPrepRow.cuh holds the row's arithmetic and
// its canonical order), so the wide CTAs of few-row launches and the narrow ones of many-row
// launches prepare a row bit-identically.
#include "cuda/KernelParams.h"
#include "cuda/kernels/ActPrepRow.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

template <int kThreads>
__global__ void __launch_bounds__(kThreads) actPrepKernel(const ActPrepParams p) {
    __shared__ double sums[kActMaxChunks + 1];
    // The norm weights (never written by a kernel) into L1 while the previous kernel finishes: at
    // batch 1 they are otherwise a cold DRAM read in the middle of the kernel's latency chain.
    if (p.normW)
        for (int e = threadIdx.x * 32; e < p.cols; e += kThreads * 32)
            asm volatile("prefetch.global.L1 [%0];" ::"l"(p.normW + e));
    pdlWait();
    pdlTrigger();
    const int r = blockIdx.x;
    const int64_t srcRow = p.rowIndex ? p.rowIndex[r] : r;
    prepareRow<kThreads>(p, p.x + srcRow * p.ldx, static_cast<int64_t>(r) * p.cols, static_cast<int64_t>(r) * (p.cols / 32), sums);
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
    // Up to about a CTA per multiprocessor (decode, batched decode): a wide CTA per row, its warps
    // taking the row's chunks side by side instead of a few warps walking them in turn (64 rows of
    // a batched step: 256-thread CTAs took 7 us a launch on the H200, bound by that walk's latency).
    if (p.cols > kActMaxChunks * kActChunk) return cudaErrorInvalidValue;
    if (p.rows <= 128) return launchKernel(actPrepKernel<1024>, p.rows, 1024, 0, s, p);
    return launchKernel(actPrepKernel<256>, p.rows, 256, 0, s, p);
}

cudaError_t launchCopyRows(float* dst, const float* src, const int32_t* rowIndex, int rows, int cols, cudaStream_t s) {
    if (rows <= 0) return cudaSuccess;
    return launchKernel(copyRowsKernel, rows, 256, 0, s, dst, src, rowIndex, cols);
}

}  // namespace hearth::cuda
