// Activation preparation kernel: one CTA per row (ActPrep.cuh has the arithmetic).
#include "cuda/KernelParams.h"
#include "cuda/kernels/ActPrep.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

template <int kThreads>
__global__ void __launch_bounds__(kThreads) actPrepKernel(const ActPrepParams p) {
    __shared__ double sums[kActMaxChunks + 1];
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
    // Few rows (decode): a wide CTA per row, since the rows run one after another on few SMs.
    if (p.cols > kActMaxChunks * kActChunk) return cudaErrorInvalidValue;
    if (p.rows <= 16) return launchKernel(actPrepKernel<1024>, p.rows, 1024, 0, s, p);
    return launchKernel(actPrepKernel<256>, p.rows, 256, 0, s, p);
}

cudaError_t launchCopyRows(float* dst, const float* src, const int32_t* rowIndex, int rows, int cols, cudaStream_t s) {
    if (rows <= 0) return cudaSuccess;
    return launchKernel(copyRowsKernel, rows, 256, 0, s, dst, src, rowIndex, cols);
}

}  // namespace hearth::cuda
