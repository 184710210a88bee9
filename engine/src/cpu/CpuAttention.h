#pragma once
// Paged attention on the CPU: K/V are read through each sequence's block table, for a ragged batch
// of sequences at different positions (prefill chunks and decode tokens in one call).
//
// Numerics: Q is rounded to f16 before the dot with the f16 K cache (as ggml does when it pairs an
// f16 K with f32 Q), scores are scaled by 1/sqrt(headDim), softmax sums in double, and V is
// accumulated in f32.

#include <cstdint>
#include <vector>

#include "backend/ForwardBatch.h"
#include "cpu/KvLayout.h"
#include "cpu/ThreadPool.h"
#include "model/ModelConfig.h"

namespace hearth::cpu {

class CpuAttention {
public:
    // Write the batch's K and V rows (T × kvDim each, f32) for `layer` into their blocks.
    static void storeKv(const ForwardBatch& b, const float* k, const float* v, uint8_t* pool, const KvLayout& L,
                        uint32_t layer, ThreadPool& threads);

    // out (T × qDim) = causal attention of q (T × qDim) over each sequence's cached K/V.
    void attend(const ForwardBatch& b, const float* q, const uint8_t* pool, const KvLayout& L, uint32_t layer,
                const ModelConfig& c, float* out, ThreadPool& threads);

private:
    struct WorkerScratch {
        std::vector<float> scores, qf, acc, row;
    };
    std::vector<WorkerScratch> scratch_;
};

}  // namespace hearth::cpu
