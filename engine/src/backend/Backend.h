#pragma once
// What the engine needs from a device (or a pipeline of devices): run a ragged forward step over a
// paged KV cache, and move KV blocks to and from host memory for the RAM and disk tiers.
//
// Invariants: the KV pool is allocated once (allocateKv) and never resized while sequences hold
// blocks; a block's bytes (kvBlockBytes()) are an opaque, self-contained unit holding all layers'
// K and V for kBlockSize positions, so copying those bytes out and back in restores it exactly.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "backend/ForwardBatch.h"
#include "hearth/engine.h"
#include "hearth/result.h"

namespace hearth {

// The error for a backend whose kvBlockBytes(dtype) is 0: `who` (e.g. "the cpu backend") cannot
// hold that cache for this model, with the reason where it is the model's shape.
inline Error kvDTypeRefused(const std::string& who, KvDType dtype) {
    return makeError(ErrorCode::InvalidArgument,
                     who + " cannot hold a " + kvDTypeName(dtype) + " KV cache for this model" +
                         (dtype == KvDType::Q8_0 ? " (q8_0 needs a head size that is a multiple of 32)" : ""));
}

class Backend {
public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0;
    // Bytes one KV block occupies for a dtype (so the engine can size the pool before allocating).
    virtual uint64_t kvBlockBytes(KvDType dtype) const = 0;
    virtual Status allocateKv(uint32_t numBlocks, KvDType dtype) = 0;
    virtual uint32_t numKvBlocks() const = 0;

    // Run the step; logits receives batch.logitRows.size() rows of vocab floats.
    virtual Status forward(const ForwardBatch& batch, std::vector<float>& logits) = 0;

    // Copy whole blocks to/from host memory (kvBlockBytes() each, packed in order).
    virtual Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host) = 0;
    virtual Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host) = 0;

    virtual std::vector<DeviceMemoryStats> memoryStats() const = 0;
    virtual uint32_t vocabSize() const = 0;

    // Optional: page-lock host memory that blocks are copied to and from (the RAM tier), so those
    // copies run at the bus's speed. Best effort (nothing happens where it does not apply or
    // fails); unregister before freeing the memory.
    virtual void registerHostMemory(void* p, uint64_t bytes) {}
    virtual void unregisterHostMemory(void* p) {}

    // Optional: sample on the device so only chosen tokens come back (GPU backends). One entry of
    // `rows` per batch.logitRows row. The engine uses this when canSampleOnDevice() and the rows
    // need nothing the device sampler lacks (penalties, constraints, logprobs); otherwise forward().
    struct RowSampling {
        float temperature = 0;   // 0: greedy
        int topK = 0;
        float topP = 1;
        float minP = 0;
        float uniform = 0;       // the request's next uniform draw in [0,1), from its own RNG
        // Token ids never drawn (a request with ignore_eos bans its end-of-generation tokens), -1
        // for none; a request with more is sampled on the host.
        static constexpr int kMaxBanned = 4;
        int32_t banned[kMaxBanned] = {-1, -1, -1, -1};
    };
    virtual bool canSampleOnDevice() const { return false; }
    virtual Status forwardSample(const ForwardBatch& batch, std::span<const RowSampling> rows,
                                 std::vector<TokenId>& tokens) {
        return makeError(ErrorCode::Unavailable, name() + " cannot sample on the device");
    }
};

}  // namespace hearth
