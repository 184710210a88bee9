// Which devices launch with programmatic dependent launch (see Launch.cuh).
#include <atomic>
#include <cstdlib>

#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kMaxDevices = 64;
std::atomic<bool> pdlOn[kMaxDevices];

}  // namespace

void enablePdl(int device, int ccMajor) {
    if (device < 0 || device >= kMaxDevices) return;
    pdlOn[device].store(ccMajor >= 9 && std::getenv("HEARTH_CUDA_NO_PDL") == nullptr);
}

bool pdlEnabled() {
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= kMaxDevices) return false;
    return pdlOn[d].load(std::memory_order_relaxed);
}

}  // namespace hearth::cuda
