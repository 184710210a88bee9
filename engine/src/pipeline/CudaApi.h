#pragma once
// The C entry point of libhearth-cuda.so, which the engine dlopens at run time (so one package
// starts on machines without NVIDIA drivers). The library exports exactly one symbol,
// `hearth_cuda_api`, returning a table of functions; the engine checks the table's ABI version
// before using anything else in it.
//
// Invariants: kHearthCudaAbi changes whenever this header, PipelineStage.h, ModelWeights.h,
// ModelConfig.h or ForwardBatch.h change shape, because C++ objects (the stage, the weights) cross
// the boundary and both sides must be built from the same headers. Errors come back as an
// ErrorCode value and a NUL-terminated message in the caller's buffer.

#include <cstddef>
#include <cstdint>

namespace hearth {
class ModelWeights;
class PipelineStage;
}

extern "C" {

constexpr uint32_t kHearthCudaAbi = 3;

struct HearthCudaDeviceInfo {
    char name[128];
    int ordinal;
    int ccMajor, ccMinor;
    int multiProcessors;
    uint64_t totalBytes, freeBytes;
};

struct HearthCudaStageArgs {
    uint32_t abiVersion;                   // kHearthCudaAbi
    const hearth::ModelWeights* weights;   // host views into the mapped file; read during creation only
    int device;                            // CUDA ordinal
    int logicalIndex;                      // which logical slice of the device (names, stats)
    int logicalCount;                      // how many stages share this device
    int firstLayer, lastLayer;             // [first, last)
    int embedding;                         // 1: this stage embeds the tokens
    int head;                              // 1: this stage has the final norm and output projection
    int maxBatchTokens;                    // scratch sizing (grows on demand when exceeded)
    int useGraphs;                         // 1: capture decode steps in CUDA graphs
    int batchInvariant;                    // 1: a row's results do not depend on its batch-mates
    int maxContext;                        // longest sequence the engine runs (fixes attention partitions)
};

struct HearthCudaApi {
    uint32_t abiVersion;
    // Number of CUDA devices; < 0 with a message when the driver or runtime is unusable.
    int (*deviceCount)(char* err, size_t errLen);
    // 0 on success; an ErrorCode value otherwise.
    int (*deviceInfo)(int ordinal, HearthCudaDeviceInfo* out, char* err, size_t errLen);
    // 0 and *out set on success (delete the stage through its virtual destructor before the
    // library is closed); an ErrorCode value and a message otherwise.
    int (*createStage)(const HearthCudaStageArgs* args, hearth::PipelineStage** out, char* err, size_t errLen);
};

// Returns nullptr when the library was built for another ABI version.
typedef const HearthCudaApi* (*HearthCudaApiFn)(uint32_t abiVersion);
}
