#pragma once
// CUDA / cuBLAS status codes as hearth errors, naming the call that failed.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <string>

#include "hearth/result.h"

namespace hearth::cuda {

inline Status cudaStatus(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return Status::success();
    const ErrorCode code = e == cudaErrorMemoryAllocation ? ErrorCode::OutOfMemory : ErrorCode::Internal;
    return makeError(code, std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

inline Status cublasStatus(cublasStatus_t e, const char* what) {
    if (e == CUBLAS_STATUS_SUCCESS) return Status::success();
    return makeError(e == CUBLAS_STATUS_ALLOC_FAILED ? ErrorCode::OutOfMemory : ErrorCode::Internal,
                     std::string("cuBLAS: ") + what + ": status " + std::to_string(static_cast<int>(e)));
}

}  // namespace hearth::cuda

#define HEARTH_CUDA_TRY(expr) HEARTH_TRY(::hearth::cuda::cudaStatus((expr), #expr))
#define HEARTH_CUBLAS_TRY(expr) HEARTH_TRY(::hearth::cuda::cublasStatus((expr), #expr))
