#pragma once
// Continuous batching over the paged KV cache (after vLLM v1's scheduler). There are no prefill and
// decode phases: every request has tokens computed (KV on the device) and tokens known (prompt +
// output), and each step spends a token budget:
//   1. one token for every running request that is decoding (oldest first), then the draft tokens
//      proposed for them (Request::draft, speculative decoding) as far as the budget and free
//      blocks allow (a draft never preempts anyone, and never goes past the context);
//   2. then prefill chunks and admissions, one chunk per turn, taking turns across user keys
//      (least recently served user first, higher priority before that), so one user's long prompt
//      or many parallel requests cannot starve another user's chat;
// Admission looks up the longest cached prefix (device, RAM, disk). When blocks run out, the
// victim is the lowest-priority running request of the user with the most running requests, newest
// first; it is swapped (its partial tail block to RAM, its full blocks stay cached in the tiers)
// and later resumes through the prefix lookup, or is recomputed where nothing survived.
//
// Invariants:
// - a request is in exactly one of waiting_ (Waiting/Preempted), running_ (Running), or gone;
// - running requests hold block tables covering their computed tokens; waiting ones hold none;
// - running_.size() <= maxSeqs; a step schedules at most maxBatchTokens tokens;
// - a request that can never fit (empty, or longer than maxContext()) is refused by add().

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/ForwardBatch.h"
#include "hearth/result.h"
#include "kv/KvCacheManager.h"
#include "scheduler/Request.h"
#include "scheduler/SchedulerOutput.h"

namespace hearth {

struct SchedulerConfig {
    int32_t maxSeqs = 64;
    int32_t maxBatchTokens = 2048;
    int32_t prefillChunk = 512;
    int32_t contextLength = 2048;  // the model's context (the KV pool may cap it further)
};

struct SchedulerStats {
    int32_t running = 0, waiting = 0, swapped = 0;
    uint64_t prefixQueryTokens = 0, hitTokensDevice = 0, hitTokensRam = 0, hitTokensDisk = 0;
    uint64_t preemptions = 0, steps = 0;
};

class Scheduler {
public:
    Scheduler(const SchedulerConfig& config, KvCacheManager& kv);

    // Longest sequence (prompt + output) that fits both the context and the whole KV pool.
    int32_t maxContext() const { return maxContext_; }

    // Takes a request in (status Waiting). Error (and nothing queued) when it can never fit.
    Status add(std::unique_ptr<Request> request);
    // Ends a request wherever it is, freeing its blocks now; false when it is not known.
    // dropTrailing: output tokens to take back first (appended in the same step past a stop string).
    bool finish(RequestId id, FinishReason reason, int32_t dropTrailing = 0);

    // Running requests whose next step is a decode (one pending token): the ones that may get
    // draft tokens (set Request::draft before schedule()).
    std::vector<Request*> decodingRequests() const;

    SchedulerOutput schedule();
    void fillBatch(const SchedulerOutput& out, ForwardBatch& batch) const;
    // sampled holds, for each sequence with sample set in order, counts[i] tokens (1 + the drafts
    // it accepted; empty counts: one each). Advances computed tokens past the accepted positions,
    // rolls back the KV of rejected drafts, appends the tokens one by one under the token-level stop
    // conditions (stop tokens, max tokens, context end), caches full blocks and frees finished
    // requests.
    std::vector<SeqUpdate> update(const SchedulerOutput& out, std::span<const TokenId> sampled,
                                  std::span<const int32_t> counts = {});

    const Request* request(RequestId id) const;
    // Requests finished by update() or finish() since the last call (they are removed afterwards).
    std::vector<std::unique_ptr<Request>> takeFinished();

    bool hasWork() const { return !running_.empty() || !waiting_.empty(); }
    SchedulerStats stats() const;

private:
    struct Budget {
        int32_t tokens;
        bool preempted = false;  // a block-shortage preemption happened: admit nobody this step
    };
    bool scheduleRunning(Request& r, int32_t numTokens, SchedulerOutput& out, Budget& budget);
    enum class Admit { Ok, NoRoom };
    Admit admit(Request& r, SchedulerOutput& out, Budget& budget);
    void addToOutput(Request& r, int32_t numTokens, SchedulerOutput& out, Budget& budget);
    void addDrafts(SchedulerOutput& out, Budget& budget);
    void preempt(Request& victim, SchedulerOutput& out, Budget& budget);
    Request* chooseVictim(const Request* exclude) const;
    Request* chooseFairnessVictim(const Request& waiting) const;
    int32_t runningOf(const std::string& user) const;
    void removeFromQueues(Request& r);
    void served(const std::string& user) { lastServed_[user] = ++serveClock_; }
    uint64_t lastServed(const std::string& user) const;

    SchedulerConfig config_;
    KvCacheManager& kv_;
    int32_t maxContext_;
    std::unordered_map<RequestId, std::unique_ptr<Request>> requests_;
    std::vector<Request*> running_;  // admission order
    std::vector<Request*> waiting_;  // arrival order (preempted requests keep their arrival)
    std::vector<std::unique_ptr<Request>> finished_;
    std::map<std::string, uint64_t> lastServed_;
    uint64_t serveClock_ = 0, admitClock_ = 0;
    SchedulerStats stats_;
};

}  // namespace hearth
