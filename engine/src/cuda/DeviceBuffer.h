#pragma once
// Owning handles for device and pinned host allocations (move-only).
//
// Invariants: data() is null exactly when size() is 0; the memory is released on destruction on
// the device it was allocated on (the owner sets that device current before destroying it, as
// every CudaStage entry point does).

#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "cuda/CudaCheck.h"

namespace hearth::cuda {

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            reset();
            p_ = std::exchange(o.p_, nullptr);
            n_ = std::exchange(o.n_, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    Status allocate(uint64_t bytes, const char* what) {
        reset();
        if (bytes == 0) return Status::success();
        void* p = nullptr;
        const cudaError_t e = cudaMalloc(&p, bytes);
        if (e != cudaSuccess) {
            cudaGetLastError();
            return makeError(ErrorCode::OutOfMemory, std::string("cannot allocate ") + std::to_string(bytes >> 20) +
                                                         " MiB of GPU memory for " + what + ": " + cudaGetErrorString(e));
        }
        p_ = p;
        n_ = bytes;
        return Status::success();
    }
    void reset() {
        if (p_) cudaFree(p_);
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

class PinnedBuffer {
public:
    PinnedBuffer() = default;
    ~PinnedBuffer() { reset(); }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    Status allocate(uint64_t bytes, const char* what) {
        reset();
        if (bytes == 0) return Status::success();
        void* p = nullptr;
        const cudaError_t e = cudaMallocHost(&p, bytes);
        if (e != cudaSuccess) {
            cudaGetLastError();
            return makeError(ErrorCode::OutOfMemory, std::string("cannot allocate ") + std::to_string(bytes >> 20) +
                                                         " MiB of pinned host memory for " + what);
        }
        p_ = p;
        n_ = bytes;
        return Status::success();
    }
    void reset() {
        if (p_) cudaFreeHost(p_);
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

}  // namespace hearth::cuda
