#pragma once
// What a device, with the code this library carries for it, offers the kernels: which forms of the
// matrix products run there (tensor cores, the integer and warpgroup forms, streamed matrix-vector
// weights) and the shared memory they may take.
//
// Invariants (of a DeviceCaps from choose()): every form it turns on was prepared on the device
// (its kernels' attributes set); the sm_90 forms (warpgroup, bulk-copy streaming) are on only where
// the code the device runs was compiled for sm_90 (wgmma: sm_90a), whatever the device's compute
// capability: a card newer than every cubin runs older PTX, in which those instructions are left out.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "hearth/result.h"

namespace hearth::cuda {

struct DeviceCaps {
    int multiProcessors = 1;
    int sharedOptin = 48 << 10;      // shared memory a block may opt in to
    int sharedPerSm = 100 << 10;     // shared memory of a multiprocessor
    bool tensorCores = false;        // the fused tensor-core path is usable (prepareQuantMma)
    // The k-quant types whose tensor-core products take the integer form (QuantMmaI8.cu), a bit per
    // GGUF type: Q5_K by default, Q4_K too with HEARTH_CUDA_MMA_I8=1, none with =0.
    uint32_t i8MmaTypes = 0;
    bool i8Mma(int type) const { return type >= 0 && type < 32 && ((i8MmaTypes >> type) & 1u); }
    bool wgmma = false;              // the warpgroup form runs here (prepareQuantWgmma)
    // By default (HEARTH_CUDA_MMA_I8 unset) the integer form's types take the warpgroup form where
    // that runs the launch (17-64 tokens on Hopper), the integer form elsewhere.
    bool i8YieldsToWgmma = false;
    int streamGemv = 0;              // GemvParams::streamWeights for dense decode launches

    // Checks that `device` (current, described by `prop`, called `name` in messages) can run this
    // library: compute capability 8.0 or newer, and code for it in the library (probeDeviceCode);
    // turns programmatic dependent launch on or off by that code, and chooses and prepares the
    // forms above (the HEARTH_CUDA_* switches of measuring and tests included).
    static Result<DeviceCaps> choose(int device, const cudaDeviceProp& prop, const std::string& name);
};

}  // namespace hearth::cuda
