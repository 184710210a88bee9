#pragma once
// Kernel launches with programmatic dependent launch (PDL, sm_90 and newer): a kernel of the step
// may be scheduled while the kernel before it is still running, so its CTAs are resident and its
// weight loads in flight when its inputs are ready, instead of starting cold after a gap.
//
// The contract every kernel launched through launchKernel() keeps:
//  - before pdlWait() it reads only memory that no kernel of the step writes (weights, the rope
//    table), and it writes nothing;
//  - pdlWait() returns once the previous kernel in the stream has finished and its writes are
//    visible (that kernel waited for its own predecessor first, so this holds transitively);
//  - pdlTrigger() lets the next kernel be scheduled; every kernel calls it right after pdlWait(),
//    so at most one kernel waits ahead of the running one. (Triggering before the wait let whole
//    chains of waiting kernels occupy the multiprocessors: decode was 7% slower on the H200; only
//    the one-CTA input preparations triggering early, so each matrix-vector kernel could prefetch
//    during the kernel before the preparation, was 4% slower: 380 vs 396 tok/s, llama8b Q4_K_M.)
// Without PDL (older GPUs, HEARTH_CUDA_NO_PDL set) both calls are no-ops and launches are ordinary.
#include <map>
#include <mutex>
#include <tuple>

#include <cuda_runtime.h>

#include "cuda/KernelParams.h"

namespace hearth::cuda {

// CTAs of `threads` threads and `smem` bytes of dynamic shared memory of `kernel` resident on the
// current device at once (cached per device, kernel, threads and shared memory: instantiations
// differ in registers, so each has its own occupancy). 0 when it cannot be found out.
template <typename... Params>
inline int residentCtas(void (*kernel)(Params...), int smem = 0, int threads = 128) {
    static std::mutex mutex;
    static std::map<std::tuple<int, const void*, int, int>, int> cache;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 0;
    std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(dev, reinterpret_cast<const void*>(kernel), smem, threads);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    int perSm = 0, sms = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, smem) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return cache[key] = perSm * sms;
}

__device__ __forceinline__ void pdlWait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void pdlTrigger() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::);
#endif
}

// Launches kernel<<<grid, block, smem, s>>>(args...), with the PDL attribute where the current
// device has it enabled (pdlEnabled()). Returns the launch error.
template <typename... Params, typename... Args>
cudaError_t launchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, cudaStream_t s, Args&&... args) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = pdlEnabled() ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
}

}  // namespace hearth::cuda
