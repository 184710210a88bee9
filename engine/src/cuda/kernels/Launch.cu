// Which devices launch with programmatic dependent launch (see Launch.cuh).
#include <atomic>
#include <cstdlib>
#include <string>

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

bool pdlEarly(const char* kind) {
    const char* v = std::getenv("HEARTH_CUDA_PDL_EARLY");
    if (!v) return false;
    const std::string list = std::string(",") + v + ",";
    return list.find(std::string(",") + kind + ",") != std::string::npos;
}

}  // namespace hearth::cuda
