// Which devices launch with programmatic dependent launch (see Launch.cuh), and which
// architecture the code this library runs on a device was compiled for.
#include <atomic>
#include <cstdlib>

#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kMaxDevices = 64;
std::atomic<bool> pdlOn[kMaxDevices];

__global__ void codeArchKernel(int* arch) {
#ifdef __CUDA_ARCH__
    *arch = __CUDA_ARCH__;
#endif
}

}  // namespace

cudaError_t deviceCodeArch(int& arch) {
    arch = 0;
    int* d = nullptr;
    if (cudaError_t e = cudaMalloc(&d, sizeof(int)); e != cudaSuccess) return e;
    codeArchKernel<<<1, 1>>>(d);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(&arch, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}

void enablePdl(int device, int codeArch) {
    if (device < 0 || device >= kMaxDevices) return;
    pdlOn[device].store(codeArch >= 900 && std::getenv("HEARTH_CUDA_NO_PDL") == nullptr);
}

bool pdlEnabled() {
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= kMaxDevices) return false;
    return pdlOn[d].load(std::memory_order_relaxed);
}

}  // namespace hearth::cuda
