#pragma once
// One stage of a pipeline: a contiguous range of transformer layers on one device (a GPU, a logical
// slice of a GPU, or the CPU), plus the embedding when it is the first stage and the final norm and
// output projection when it is the last. PipelineBackend chains stages; activations cross between
// them as host f32 hidden states (numTokens × nEmbd, row-major).
//
// Invariants: a stage owns KV only for its own layers; its block ids are the pipeline's block ids
// (every stage allocates the same numBlocks), so one block table addresses all stages. run() is
// called by one thread at a time per stage (stages of one pipeline may run concurrently, each on
// its own thread). This interface crosses the dlopen boundary of libhearth-cuda, so it holds only
// virtual functions and types both sides compile from the same headers (see CudaApi.h's version).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "backend/Backend.h"

namespace hearth {

class PipelineStage {
public:
    virtual ~PipelineStage() = default;

    struct Io {
        const float* hiddenIn = nullptr;  // host, numTokens × nEmbd; ignored by a stage with the embedding
        float* hiddenOut = nullptr;       // host, numTokens × nEmbd; written by a stage without the head
        std::vector<float>* logits = nullptr;        // head stage: logitRows × vocab (when sampling is empty)
        std::span<const Backend::RowSampling> sampling;  // head stage: sample on the device instead
        std::vector<TokenId>* tokens = nullptr;      // receives one token per logit row when sampling
    };

    virtual std::string name() const = 0;
    virtual int firstLayer() const = 0;
    virtual int lastLayer() const = 0;  // exclusive
    virtual bool hasEmbedding() const = 0;
    virtual bool hasHead() const = 0;
    virtual bool canSampleOnDevice() const { return false; }

    virtual uint64_t kvBlockBytes(KvDType dtype) const = 0;
    virtual Status allocateKv(uint32_t numBlocks, KvDType dtype) = 0;

    // The batch was validated by the pipeline (block ids < numBlocks, tokens < vocab).
    virtual Status run(const ForwardBatch& batch, const Io& io) = 0;

    // Block i of `blocks` goes to / comes from host + i * hostStride (kvBlockBytes() bytes of it).
    virtual Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host, uint64_t hostStride) = 0;
    virtual Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host, uint64_t hostStride) = 0;

    virtual std::vector<DeviceMemoryStats> memoryStats() const = 0;

    // As Backend's: page-lock host memory used by the block copies (best effort).
    virtual void registerHostMemory(void* p, uint64_t bytes) {}
    virtual void unregisterHostMemory(void* p) {}
};

}  // namespace hearth
