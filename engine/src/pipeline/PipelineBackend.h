#pragma once
// A Backend made of pipeline stages (GPU layer ranges, logical GPU slices, a CPU tail). One stage
// is the common case (the whole model on one GPU) and costs one virtual call. With several stages,
// a step's sequences are split into micro-batches that flow through the stages as a wavefront:
// while stage s runs micro-batch m, stage s-1 runs micro-batch m+1 (each stage on its own thread).
//
// Invariants: stages cover the model's layers in order (PlacementPlan's invariants); every stage
// holds the same number of KV blocks; a pipeline KV block is the concatenation of the stages' parts
// of that block, in stage order (kvBlockBytes() = their sum); stages are destroyed before the
// library that created them is released.

#include <memory>
#include <vector>

#include "backend/Backend.h"
#include "pipeline/PipelineStage.h"
#include "pipeline/StageWorker.h"

namespace hearth {

class PipelineBackend final : public Backend {
public:
    // `keepAlive` (the dlopen'ed CUDA library, or null) outlives the stages.
    PipelineBackend(std::vector<std::unique_ptr<PipelineStage>> stages, std::shared_ptr<void> keepAlive,
                    uint32_t vocab, uint32_t nEmbd, int microBatches);
    ~PipelineBackend() override;

    std::string name() const override;
    uint64_t kvBlockBytes(KvDType dtype) const override;
    Status allocateKv(uint32_t numBlocks, KvDType dtype) override;
    uint32_t numKvBlocks() const override { return numBlocks_; }
    Status forward(const ForwardBatch& batch, std::vector<float>& logits) override;
    Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host) override;
    Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host) override;
    void registerHostMemory(void* p, uint64_t bytes) override;
    void unregisterHostMemory(void* p) override;
    std::vector<DeviceMemoryStats> memoryStats() const override;
    uint32_t vocabSize() const override { return vocab_; }
    bool canSampleOnDevice() const override { return stages_.back()->canSampleOnDevice(); }
    Status forwardSample(const ForwardBatch& batch, std::span<const RowSampling> rows,
                         std::vector<TokenId>& tokens) override;

    size_t numStages() const { return stages_.size(); }
    const PipelineStage& stage(size_t i) const { return *stages_[i]; }

private:
    Status run(const ForwardBatch& batch, std::span<const RowSampling> rows, std::vector<float>* logits,
               std::vector<TokenId>* tokens);

    std::shared_ptr<void> keepAlive_;  // declared first: released after the stages
    std::vector<std::unique_ptr<PipelineStage>> stages_;
    std::vector<std::unique_ptr<StageWorker>> workers_;
    uint32_t vocab_, nEmbd_;
    int microBatches_;
    uint32_t numBlocks_ = 0;
    KvDType kvType_ = KvDType::F16;
};

}  // namespace hearth
