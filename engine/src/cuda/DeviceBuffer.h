#pragma once
// Owning handles for device (DeviceBuffer) and pinned host (PinnedBuffer) allocations, move-only.
//
// Invariants: data() is null exactly when size() is 0; the memory is released on destruction on
// the device it was allocated on (the owner sets that device current before destroying it, as
// every CudaStage entry point does).

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>

#include "cuda/CudaCheck.h"

namespace hearth::cuda {

template <cudaError_t (*Alloc)(void**, size_t), cudaError_t (*Free)(void*)>
class CudaAllocation {
public:
    CudaAllocation() = default;
    ~CudaAllocation() { reset(); }
    CudaAllocation(CudaAllocation&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    CudaAllocation& operator=(CudaAllocation&& o) noexcept {
        if (this != &o) {
            reset();
            p_ = std::exchange(o.p_, nullptr);
            n_ = std::exchange(o.n_, 0);
        }
        return *this;
    }
    CudaAllocation(const CudaAllocation&) = delete;
    CudaAllocation& operator=(const CudaAllocation&) = delete;

    // `what` names the use in the OutOfMemory message.
    Status allocate(uint64_t bytes, const char* what) {
        reset();
        if (bytes == 0) return Status::success();
        void* p = nullptr;
        const cudaError_t e = Alloc(&p, bytes);
        if (e != cudaSuccess) {
            cudaGetLastError();
            return makeError(ErrorCode::OutOfMemory, std::string("cannot allocate ") + std::to_string(bytes >> 20) + " MiB of " +
                                                         (Alloc == &cudaMallocHost ? "pinned host" : "GPU") +
                                                         " memory for " + what + ": " + cudaGetErrorString(e));
        }
        p_ = p;
        n_ = bytes;
        return Status::success();
    }
    void reset() {
        if (p_) Free(p_);
        p_ = nullptr;
        n_ = 0;
    }
    template <typename T = void>
    T* as() const { return static_cast<T*>(p_); }
    void* data() const { return p_; }
    uint64_t size() const { return n_; }

private:
    void* p_ = nullptr;
    uint64_t n_ = 0;
};

using DeviceBuffer = CudaAllocation<&cudaMalloc, &cudaFree>;
using PinnedBuffer = CudaAllocation<&cudaMallocHost, &cudaFreeHost>;

}  // namespace hearth::cuda
