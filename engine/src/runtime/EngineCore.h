#pragma once
// The engine's step loop, synchronous and single-threaded: it owns the backend, the KV cache
// manager, the scheduler and the per-request output streams. EngineRuntime drives it from the
// engine thread; tests drive it directly, one step at a time.
//
// One step: draft proposals (speculative decoding) -> schedule -> build the ForwardBatch -> backend
// forward -> sample each sequence's logits row, or verify its drafts -> scheduler update (append
// tokens, stop tokens, max tokens, roll back rejected drafts, cache/free blocks) -> stop strings ->
// one sink event per request -> finishes.
//
// Invariants: every request given to add() gets exactly one onFinished()/onError() (from add()
// itself when it is refused, from step()/cancel() when it ends, or from shutdown()); streams_
// holds exactly the requests the scheduler knows; all methods run on one thread.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "backend/Backend.h"
#include "hearth/engine.h"
#include "kv/KvCacheManager.h"
#include "runtime/EngineMetrics.h"
#include "runtime/RequestStream.h"
#include "runtime/StepTrace.h"
#include "scheduler/Scheduler.h"
#include "spec/SpecDecoder.h"
#include "spec/SpecVerifier.h"

namespace hearth {

struct EngineCoreOptions {
    Hash128 fingerprint;          // model file + backend + KV layout (block hashes and disk files)
    int32_t modelContext = 2048;  // the model's own context, used when EngineConfig::contextLength is 0
    // Tests: >= 0 fixes the draft planner's step costs (1 + ratio per token) instead of timing steps.
    double specCostRatio = -1;
};

class EngineCore {
public:
    using Clock = std::chrono::steady_clock;

    // Sizes and allocates the KV pool, opens the RAM and disk tiers. tokenizer may be null (then
    // requests must carry token ids and no text is produced).
    // spec: what config.spec's method needs (the opened index, the draft model's backend).
    static Result<std::unique_ptr<EngineCore>> create(std::unique_ptr<Backend> backend,
                                                      std::shared_ptr<const Tokenizer> tokenizer,
                                                      const EngineConfig& config, const EngineCoreOptions& options,
                                                      SpecResources spec = {});
    ~EngineCore();

    void add(RequestId id, const GenerationRequest& request, std::shared_ptr<TokenSink> sink,
             Clock::time_point submitted = Clock::now());
    void cancel(RequestId id);
    // One iteration of the loop; an error is a backend failure (the requests in that step were
    // failed through their sinks; the engine keeps serving the others).
    Status step();
    bool hasWork() const { return scheduler_->hasWork(); }
    // withDevices: also ask the backend for memory figures (slower: may read /proc).
    EngineStats stats(bool withDevices = true) const;
    // Called right before sinks receive finishes, so a snapshot taken there already counts them.
    void setBeforeFinishes(std::function<void()> fn) { beforeFinishes_ = std::move(fn); }
    // Ends every request (Cancelled) and writes the cached KV blocks to the disk tier.
    void shutdown();

    int32_t contextLength() const { return scheduler_->maxContext(); }
    // Fixed at creation and immutable, so other threads may tokenize with it.
    const std::shared_ptr<const Tokenizer>& tokenizer() const { return tokenizer_; }
    const Scheduler& scheduler() const { return *scheduler_; }
    const KvCacheManager& kv() const { return *kv_; }
    Backend& backend() { return *backend_; }
    const SpecDecoder* spec() const { return spec_.get(); }

private:
    EngineCore() = default;
    void deliverFinished(Clock::time_point now);
    // Runs the batch and fills sampled_ / sampledLogprobs_ (sampledCounts_[i] entries for the i-th
    // sampled sequence: its accepted drafts, then the target's token).
    Status forwardAndSample(const SchedulerOutput& out);
    void proposeDrafts();
    // Hands one sequence's new tokens to its stream (stop strings, constraint); returns the
    // generated-token count it emitted.
    int32_t emitTokens(const SeqUpdate& u, size_t firstLogprob, Clock::time_point now);

    EngineConfig config_;
    EngineCoreOptions options_;
    std::unique_ptr<Backend> backend_;
    std::shared_ptr<const Tokenizer> tokenizer_;
    std::unique_ptr<KvCacheManager> kv_;
    std::unique_ptr<Scheduler> scheduler_;
    std::unique_ptr<SpecDecoder> spec_;
    SpecVerifier verifier_;
    std::vector<SpecDecoder::Target> specTargets_;
    uint64_t specErrors_ = 0;
    std::unordered_map<RequestId, std::unique_ptr<RequestStream>> streams_;
    std::unordered_map<RequestId, Error> errors_;
    EngineMetrics metrics_;
    StepTrace trace_;  // HEARTH_STEP_LOG
    uint32_t vocab_ = 0;
    std::function<void()> beforeFinishes_;

    ForwardBatch batch_;
    std::vector<float> logits_;
    std::vector<TokenId> sampled_, rowTokens_;
    std::vector<int32_t> sampledCounts_;
    std::vector<Backend::RowSampling> rowSampling_;
    std::vector<bool> allowed_;  // constrained decoding: the vocabulary mask of the row being sampled
    std::vector<std::optional<TokenLogprob>> sampledLogprobs_;
    uint64_t totalPromptTokens_ = 0, totalGeneratedTokens_ = 0, totalRequests_ = 0;
};

}  // namespace hearth
