#pragma once
// A pipeline stage on the CPU: CpuBackend's stage API (embed, forwardLayers, head) over its layer
// range. Used for offload (the last layers of a model larger than VRAM) and as the CPU-only path's
// building block. Invariant: the wrapped backend owns exactly [firstLayer, lastLayer).

#include <memory>

#include "cpu/CpuBackend.h"
#include "pipeline/PipelineStage.h"

namespace hearth {

class CpuStage final : public PipelineStage {
public:
    CpuStage(std::unique_ptr<cpu::CpuBackend> backend, bool embedding, bool head)
        : cpu_(std::move(backend)), embedding_(embedding), head_(head) {}

    std::string name() const override { return "CPU"; }
    int firstLayer() const override { return cpu_->firstLayer(); }
    int lastLayer() const override { return cpu_->lastLayer(); }
    bool hasEmbedding() const override { return embedding_; }
    bool hasHead() const override { return head_; }
    uint64_t kvBlockBytes(KvDType dtype) const override { return cpu_->kvBlockBytes(dtype); }
    Status allocateKv(uint32_t numBlocks, KvDType dtype) override { return cpu_->allocateKv(numBlocks, dtype); }
    Status run(const ForwardBatch& batch, const Io& io) override;
    Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host, uint64_t hostStride) override;
    Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host, uint64_t hostStride) override;
    std::vector<DeviceMemoryStats> memoryStats() const override { return cpu_->memoryStats(); }

private:
    std::unique_ptr<cpu::CpuBackend> cpu_;
    bool embedding_, head_;
    std::vector<float> hidden_;
};

}  // namespace hearth
