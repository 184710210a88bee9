#pragma once
// The dlopen'ed libhearth-cuda.so and its function table.
//
// Search order: $HEARTH_CUDA_LIB (a file path), the executable's own folder, ../lib beside it (the
// build tree and the installed layout), then the dynamic loader's default path. Invariant: the
// handle stays open as long as any CudaLibrary reference (and so any stage it created) is alive.

#include <memory>
#include <string>

#include "hearth/result.h"
#include "pipeline/CudaApi.h"

namespace hearth {

class CudaLibrary {
public:
    // Unavailable (with every path tried) when the library or its dependencies cannot be loaded.
    static Result<std::shared_ptr<CudaLibrary>> load();
    ~CudaLibrary();
    CudaLibrary(const CudaLibrary&) = delete;
    CudaLibrary& operator=(const CudaLibrary&) = delete;

    const HearthCudaApi& api() const { return *api_; }
    const std::string& path() const { return path_; }

private:
    CudaLibrary(void* handle, const HearthCudaApi* api, std::string path)
        : handle_(handle), api_(api), path_(std::move(path)) {}
    void* handle_;
    const HearthCudaApi* api_;
    std::string path_;
};

}  // namespace hearth
