#pragma once
// The CPU backend: runs the whole model on host threads, weights straight from the mmap.
//
// Invariants: the KV pool is one host allocation of numKvBlocks() * kvBlockBytes() bytes made by
// allocateKv(), holding only this backend's layers [firstLayer, lastLayer); activation buffers grow
// to the largest batch seen and are reused, so a steady decode loop allocates nothing.
//
// As a pipeline stage (CPU offload under a GPU backend), forwardLayers() runs a layer range on
// host hidden states; forward() is embed + all layers + head.

#include <memory>
#include <vector>

#include "backend/Backend.h"
#include "cpu/CpuAttention.h"
#include "cpu/KvLayout.h"
#include "cpu/Matmul.h"
#include "cpu/ThreadPool.h"
#include "model/ModelWeights.h"

namespace hearth::cpu {

class CpuBackend final : public Backend {
public:
    // Owns layers [firstLayer, lastLayer) (lastLayer < 0: through the last layer).
    static Result<std::unique_ptr<CpuBackend>> create(std::shared_ptr<const GgufFile> file, const ModelConfig& config,
                                                      int threads, int firstLayer = 0, int lastLayer = -1);
    // Convenience for tools and tests: open the file and read its config.
    static Result<std::unique_ptr<CpuBackend>> open(const std::string& modelPath, int threads);
    ~CpuBackend() override;

    std::string name() const override { return "CPU"; }
    uint64_t kvBlockBytes(KvDType dtype) const override;
    Status allocateKv(uint32_t numBlocks, KvDType dtype) override;
    uint32_t numKvBlocks() const override { return numBlocks_; }
    Status forward(const ForwardBatch& batch, std::vector<float>& logits) override;
    Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host) override;
    Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host) override;
    std::vector<DeviceMemoryStats> memoryStats() const override;
    uint32_t vocabSize() const override { return weights_.config().nVocab; }

    const ModelConfig& config() const { return weights_.config(); }
    int threads() const { return pool_.size(); }
    int firstLayer() const { return first_; }
    int lastLayer() const { return last_; }

    // Pipeline-stage entry points. hidden is batch.numTokens() × nEmbd floats.
    void embed(const ForwardBatch& batch, float* hidden);
    Status forwardLayers(const ForwardBatch& batch, float* hidden);  // this backend's layer range
    // Final norm + output projection for batch.logitRows.
    void head(const ForwardBatch& batch, const float* hidden, std::vector<float>& logits);

private:
    CpuBackend(ModelWeights weights, int threads, int first, int last);
    void ensureBuffers(int64_t tokens, int64_t logitRows);
    void project(const TensorView& w, const float* x, int64_t n, float* y);

    ModelWeights weights_;
    ThreadPool pool_;
    MatmulScratch mmScratch_;
    CpuAttention attention_;
    KvLayout layout_;
    int first_ = 0, last_ = 0;
    uint8_t* kv_ = nullptr;
    uint32_t numBlocks_ = 0;
    int64_t capTokens_ = 0, capRows_ = 0;
    std::vector<float> x_, h_, q_, k_, v_, att_, gate_, up_, cos_, sin_, rowsIn_;
};

}  // namespace hearth::cpu
