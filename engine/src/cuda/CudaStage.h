#pragma once
// A pipeline stage on one CUDA device (or one logical slice of it): layers [first, last) with their
// weights in GGUF form on the device, a paged KV pool, and the embedding / head when the plan gives
// them. Also the whole-model backend: with every layer, run() is a full forward step, sampling can
// stay on the device, and steps whose every token is a logit row (decode, speculative verification)
// replay CUDA graphs.
//
// Invariants: every entry point makes the stage's device current and leaves its stream idle when
// it returns (results are on the host); scratch buffers are sized for capTokens_ tokens and
// capLogits_ logit rows and only ever grow (clearing the captured graphs when they move); the
// rope table covers positions [0, ropeLen_). Batch-invariant stages compute every matrix product
// with the matrix-vector kernels and split attention into partitions of fixedPartitionBlocks_ blocks
// (at most maxPartitions_ for the engine's context), so no step shape changes a row's arithmetic.

#include <memory>
#include <string>
#include <vector>

#include "cuda/CudaKvLayout.h"
#include "cuda/DecodeGraphs.h"
#include "cuda/DeviceWeights.h"
#include "cuda/LinearOps.h"
#include "cuda/StepMetadata.h"
#include "model/ModelConfig.h"
#include "pipeline/CudaApi.h"
#include "pipeline/PipelineStage.h"

namespace hearth::cuda {

class CudaStage final : public PipelineStage {
public:
    static Result<std::unique_ptr<CudaStage>> create(const HearthCudaStageArgs& args);
    ~CudaStage() override;

    std::string name() const override { return name_; }
    int firstLayer() const override { return first_; }
    int lastLayer() const override { return last_; }
    bool hasEmbedding() const override { return embedding_; }
    bool hasHead() const override { return head_; }
    bool canSampleOnDevice() const override { return head_; }
    uint64_t kvBlockBytes(KvDType dtype) const override;
    Status allocateKv(uint32_t numBlocks, KvDType dtype) override;
    Status run(const ForwardBatch& batch, const Io& io) override;
    Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host, uint64_t hostStride) override;
    Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host, uint64_t hostStride) override;
    void registerHostMemory(void* p, uint64_t bytes) override;
    void unregisterHostMemory(void* p) override;
    std::vector<DeviceMemoryStats> memoryStats() const override;

private:
    CudaStage() = default;
    Status init(const HearthCudaStageArgs& args);
    uint64_t scratchEstimate(int tokens, int logitRows) const;
    uint64_t partialBytes(int tokens) const;
    Status ensureCapacity(int tokens, int logitRows);
    Status ensureRope(int maxPosition);
    int partitionsFor(const StepShape& sh, bool graph) const;
    int partitionBlocksFor(const StepShape& sh) const;  // KV blocks per attention partition of a step
    Status enqueueStep(const StepShape& sh, bool sample);
    Status enqueueLayer(int li, const StepShape& sh);
    Status collect(const StepShape& sh, const Io& io, bool sample);
    Status hostSample(int row, const Backend::RowSampling& rs, int32_t& token);
    uint64_t scratchBytes() const;

    int device_ = 0, first_ = 0, last_ = 0;
    bool embedding_ = false, head_ = false, useGraphs_ = true, batchInvariant_ = false, mmaAttention_ = false,
         forceMmaAttention_ = false, decodeAttention_ = false, mmaDecode_ = false, ropeFusion_ = true;
    int attnCappedAbove_ = 1 << 30;  // AttnParams::cappedAbove
    DeviceCaps caps_;
    int fixedPartitionBlocks_ = 0, maxPartitions_ = 1;  // batch-invariant attention partitions
    int partitionBlocks_ = 0;                          // KV blocks per attention partition otherwise (one sequence)
    bool scalePartitions_ = true;                      // ... times a factor for many sequences (partitionBlocksFor)
    std::string name_, deviceName_;
    ModelConfig cfg_;
    std::vector<float> ropeFreqs_;
    int tileTokens_ = 1, partitions_ = 1;
    uint64_t dequantBytes_ = 0;
    cudaStream_t stream_ = nullptr;

    DeviceWeights weights_;
    LinearOps linear_;
    StepMetadata meta_;
    DecodeGraphs graphs_;
    CudaKvLayout kv_;
    DeviceBuffer kvPool_;
    uint32_t numBlocks_ = 0;

    int capTokens_ = 0, capLogits_ = 0, ropeLen_ = 0;
    DeviceBuffer x_, q_, k_, v_, att_, ffn_, up_, partO_, partML_, counters_, logits_, sampled_, ropeCos_, ropeSin_;
    PinnedBuffer hostOut_;
    std::vector<float> rowScratch_;
};

}  // namespace hearth::cuda
