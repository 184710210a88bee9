#include "cuda/DeviceCaps.h"

#include <algorithm>
#include <cstdlib>

#include "cuda/CudaCheck.h"
#include "cuda/KernelParams.h"

namespace hearth::cuda {

Result<DeviceCaps> DeviceCaps::choose(int device, const cudaDeviceProp& prop, const std::string& name) {
    const std::string cc = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    if (prop.major < 8)  // cp.async and the m16n8k16 MMAs are sm_80 instructions
        return makeError(ErrorCode::Unavailable, name + " has compute capability " + cc + "; the CUDA backend needs 8.0 or newer");
    // What the loaded code can do, not what the device can: on a card newer than every cubin of the
    // library (a consumer build on a Blackwell card) the driver compiles older PTX, in which the
    // sm_90 instructions below are left out: chosen by the device, the bulk-copy kernels would
    // decode shared memory no copy had filled (docs/benchmarks.md: how to run a compute_80 build's
    // tests on an H100, which checks this).
    DeviceCode code;
    if (cudaError_t e = probeDeviceCode(code); e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion)
        return makeError(ErrorCode::Unavailable, name + ": this library has no code that runs on compute capability " + cc +
                                                     " (" + cudaGetErrorString(e) + "); rebuild with CMAKE_CUDA_ARCHITECTURES naming it");
    else
        HEARTH_CUDA_TRY(e);
    enablePdl(device, code.arch);

    DeviceCaps caps;
    caps.multiProcessors = prop.multiProcessorCount;
    caps.sharedOptin = static_cast<int>(prop.sharedMemPerBlockOptin);
    caps.sharedPerSm = static_cast<int>(prop.sharedMemPerMultiprocessor);
    caps.tensorCores = std::getenv("HEARTH_CUDA_NO_MMA") == nullptr && prepareQuantMma(caps.sharedOptin) == cudaSuccess;
    // Q5_K weights on the integer tensor cores (QuantMmaI8.cu): ~3% more aggregate decode at 8-64
    // sequences than mma.sync on an H100. Where the warpgroup form runs a launch (17-64 tokens on
    // Hopper) it takes Q5_K by default instead: with its tensor-map copies, 17-23% more than the
    // integer form at 32 and 64 sequences (H100, docs/benchmarks.md). Q4_K on the integer form was
    // no faster, so it takes that form only with HEARTH_CUDA_MMA_I8=1, which also keeps both types
    // on it at every size; =0 keeps both on the f16 forms.
    const char* i8 = std::getenv("HEARTH_CUDA_MMA_I8");
    const int i8Mode = i8 ? std::atoi(i8) : -1;
    if (caps.tensorCores && i8Mode != 0 && prepareQuantMmaI8(caps.sharedOptin) == cudaSuccess)
        caps.i8MmaTypes = i8Mode == 1 ? (1u << 12) | (1u << 13) : 1u << 13;
    caps.i8YieldsToWgmma = i8Mode == -1;
    // Q8_0 / Q4_K / Q5_K / Q6_K products of 17-64 tokens on Hopper's warpgroup MMAs (QuantWgmma.cu)
    // where this library has sm_90a code; HEARTH_CUDA_WGMMA=0 keeps them on mma.sync (measuring,
    // tests), =2 makes a device without them an error (tests).
    const char* wgEnv = std::getenv("HEARTH_CUDA_WGMMA");
    const int wgMode = wgEnv ? std::atoi(wgEnv) : 1;
    const bool hopper = prop.major == 9 && prop.minor == 0;
    if (wgMode == 2 && !hopper)
        return makeError(ErrorCode::Unavailable, "HEARTH_CUDA_WGMMA=2: warpgroup MMAs need compute capability 9.0");
    caps.wgmma = caps.tensorCores && hopper && wgMode != 0 && prepareQuantWgmma(caps.sharedOptin, code) == cudaSuccess;
    if (wgMode == 2 && !caps.wgmma)
        return makeError(ErrorCode::Unavailable, "HEARTH_CUDA_WGMMA=2: this library has no sm_90a code "
                                                 "(CMAKE_CUDA_ARCHITECTURES must name 90a)");
    // Dense decode launches stream their weights through shared memory (DenseStreamGemv.cu), k-quant
    // ones copy theirs by bulk copies (KQuantGemv.cu), in sm_90 code and newer. HEARTH_CUDA_STREAM_GEMV=0 /
    // 1 / 2 (measuring, tests): off, cp.async, bulk.
    const bool sm90Code = code.arch >= 900;
    caps.streamGemv = sm90Code ? 2 : 0;
    if (const char* v = std::getenv("HEARTH_CUDA_STREAM_GEMV")) caps.streamGemv = std::clamp(std::atoi(v), 0, sm90Code ? 2 : 1);
    if (caps.streamGemv && prepareDenseStream(caps.sharedOptin) != cudaSuccess) caps.streamGemv = 0;
    cudaGetLastError();  // a form that failed to prepare is off; its error is not the next call's
    return caps;
}

}  // namespace hearth::cuda
