#pragma once
// The CPU backend: runs the whole model on host threads, weights straight from the mmap.
//
// Invariants: the KV pool is one host allocation of numKvBlocks() * kvBlockBytes() bytes made by
// allocateKv(); activation buffers grow to the largest batch seen and are reused, so a steady
// decode loop allocates nothing.

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
    static Result<std::unique_ptr<CpuBackend>> create(std::shared_ptr<const GgufFile> file, const ModelConfig& config,
                                                      int threads);
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

private:
    CpuBackend(ModelWeights weights, int threads);
    void ensureBuffers(int64_t tokens, int64_t logitRows);
    void project(const TensorView& w, const float* x, int64_t n, float* y);

    ModelWeights weights_;
    ThreadPool pool_;
    MatmulScratch mmScratch_;
    CpuAttention attention_;
    KvLayout layout_;
    uint8_t* kv_ = nullptr;
    uint32_t numBlocks_ = 0;
    int64_t capTokens_ = 0, capRows_ = 0;
    std::vector<float> x_, h_, q_, k_, v_, att_, gate_, up_, cos_, sin_, rowsIn_;
};

}  // namespace hearth::cpu
