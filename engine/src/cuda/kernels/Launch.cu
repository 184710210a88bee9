// Which devices launch with programmatic dependent launch (see Launch.cuh), and which
// architecture the code this library runs on a device was compiled for.
#include <atomic>
#include <cstdlib>

#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kMaxDevices = 64;
std::atomic<bool> pdlOn[kMaxDevices];

__global__ void deviceCodeKernel(int* out) {
#ifdef __CUDA_ARCH__
    out[0] = __CUDA_ARCH__;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    out[1] = 1;
#else
    out[1] = 0;
#endif
#endif
}

}  // namespace

cudaError_t probeDeviceCode(DeviceCode& code) {
    code = DeviceCode{};
    int* d = nullptr;
    if (cudaError_t e = cudaMalloc(&d, 2 * sizeof(int)); e != cudaSuccess) return e;
    int host[2] = {0, 0};
    deviceCodeKernel<<<1, 1>>>(d);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost);
    cudaFree(d);
    code.arch = host[0];
    code.sm90a = host[1] != 0;
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
