// Small element-wise kernels of the prefill (cuBLAS) path.
#include "cuda/KernelParams.h"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

__global__ void siluMulKernel(float* g, const float* u, int64_t n) {
    pdlWait();
    pdlTrigger();
    const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) g[i] = siluMul(g[i], u[i]);
}

}  // namespace

cudaError_t launchSiluMul(float* g, const float* u, int64_t n, cudaStream_t s) {
    if (n <= 0) return cudaSuccess;
    return launchKernel(siluMulKernel, static_cast<unsigned>((n + 255) / 256), 256, 0, s, g, u, n);
}

}  // namespace hearth::cuda
