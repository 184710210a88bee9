// The one exported symbol of libhearth-cuda.so (see pipeline/CudaApi.h).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "cuda/CudaStage.h"
#include "pipeline/CudaApi.h"

namespace {

void putError(char* err, size_t len, const std::string& msg) {
    if (err && len) std::snprintf(err, len, "%s", msg.c_str());
}

int deviceCount(char* err, size_t len) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        putError(err, len, cudaGetErrorString(e));
        cudaGetLastError();
        return -1;
    }
    return n;
}

int deviceInfo(int ordinal, HearthCudaDeviceInfo* out, char* err, size_t len) {
    cudaDeviceProp p{};
    cudaError_t e = cudaGetDeviceProperties(&p, ordinal);
    size_t freeB = 0, totalB = 0;
    if (e == cudaSuccess) e = cudaSetDevice(ordinal);
    if (e == cudaSuccess) e = cudaMemGetInfo(&freeB, &totalB);
    if (e != cudaSuccess) {
        putError(err, len, "CUDA device " + std::to_string(ordinal) + ": " + cudaGetErrorString(e));
        cudaGetLastError();
        return static_cast<int>(hearth::ErrorCode::Unavailable);
    }
    std::memset(out, 0, sizeof(*out));
    std::snprintf(out->name, sizeof(out->name), "%.127s", p.name);
    out->ordinal = ordinal;
    out->ccMajor = p.major;
    out->ccMinor = p.minor;
    out->multiProcessors = p.multiProcessorCount;
    out->totalBytes = totalB;
    out->freeBytes = freeB;
    return 0;
}

int createStage(const HearthCudaStageArgs* a, hearth::PipelineStage** out, char* err, size_t len) {
    *out = nullptr;
    if (!a || a->abiVersion != kHearthCudaAbi || !a->weights) {
        putError(err, len, "createStage: bad arguments or ABI version");
        return static_cast<int>(hearth::ErrorCode::InvalidArgument);
    }
    auto s = hearth::cuda::CudaStage::create(*a);
    if (!s) {
        putError(err, len, s.error().message);
        return static_cast<int>(s.error().code);
    }
    *out = s->release();
    return 0;
}

const HearthCudaApi kApi = {kHearthCudaAbi, &deviceCount, &deviceInfo, &createStage};

}  // namespace

extern "C" __attribute__((visibility("default"))) const HearthCudaApi* hearth_cuda_api(uint32_t abiVersion) {
    return abiVersion == kHearthCudaAbi ? &kApi : nullptr;
}
