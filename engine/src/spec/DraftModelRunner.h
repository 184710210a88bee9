#pragma once
// The draft model of speculative decoding: a small model sharing the target's vocabulary, on its
// own backend with its own KV pool (a KvCacheManager without tiers or prefix caching), drafting k
// tokens ahead of the target each step, batched over sequences (one draft forward per round).
//
// Invariants: cached(id) is exactly the tokens whose KV the draft pool holds for that sequence, at
// positions 0 .. size-1, and its block table covers them. Before drafting, the cache is cut back to
// the longest prefix it shares with the sequence's tokens (so rejected drafts, and tokens the
// target chose differently, are recomputed), always leaving the last token to run for its logits;
// positions never reach the draft model's context. A sequence whose catch-up (a new prompt) does
// not fit this step's token budget runs part of it now and drafts once it has caught up. Drafts
// with a sampler are drawn from that sampler's distribution, which is reported as q (a greedy job
// takes the argmax and reports nothing).

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "backend/Backend.h"
#include "kv/KvCacheManager.h"
#include "sampling/Sampler.h"

namespace hearth {

class DraftModelRunner {
public:
    // Allocates the draft KV pool: numBlocks blocks of the backend's kvType size.
    static Result<std::unique_ptr<DraftModelRunner>> create(std::unique_ptr<Backend> backend, KvDType kvType,
                                                            uint32_t numBlocks, int32_t context, int32_t maxBatchTokens);
    ~DraftModelRunner();

    struct Job {
        uint64_t id = 0;
        std::span<const TokenId> tokens;  // the sequence so far (prompt + accepted output)
        int32_t k = 0;                    // drafts wanted
        Sampler* sampler = nullptr;       // null: greedy
        std::vector<TokenId>* drafts = nullptr;                  // out: up to k tokens
        std::vector<std::vector<Candidate>>* dists = nullptr;   // out: q per draft (sampler jobs)
    };
    // A failed forward leaves the jobs without drafts (and the failing sequences' caches dropped).
    Status propose(std::span<Job> jobs);
    void release(uint64_t id);

    uint32_t vocabSize() const { return backend_->vocabSize(); }
    int32_t context() const { return context_; }
    Backend& backend() { return *backend_; }
    const KvCacheManager& kv() const { return *kv_; }
    const std::vector<TokenId>& cached(uint64_t id) const;
    // Mean seconds per drafting round (one draft forward) of the last propose() call; 0: none ran.
    double lastRoundSeconds() const { return lastRoundSeconds_; }

private:
    DraftModelRunner(std::unique_ptr<Backend> backend, uint32_t numBlocks, uint64_t blockBytes, int32_t context,
                     int32_t maxBatchTokens);
    // Runs batch_ and puts one token per logits row in next_ (rows of jobs in rowJobs_ order).
    Status runRound(std::span<Job> jobs, const std::vector<size_t>& rowJobs);
    void drop(uint64_t id);

    std::unique_ptr<Backend> backend_;
    std::unique_ptr<KvCacheManager> kv_;
    int32_t context_, maxBatchTokens_;
    std::unordered_map<uint64_t, std::vector<TokenId>> cached_;
    ForwardBatch batch_;
    std::vector<float> logits_;
    std::vector<TokenId> next_, slice_;
    std::vector<Backend::RowSampling> rows_;
    std::vector<Candidate> dist_;
    double lastRoundSeconds_ = 0;
};

}  // namespace hearth
