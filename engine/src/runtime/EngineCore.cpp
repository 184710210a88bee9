#include "runtime/EngineCore.h"

#include <fstream>
#include <string>

#include <algorithm>
#include <climits>

#include "kv/BlockHasher.h"

namespace hearth {
namespace {

constexpr uint64_t kDefaultDiskCacheBytes = 4ull << 30;

// Blocks for the device pool: the configured bytes, or enough for maxSeqs full contexts but at
// most half of the device's free memory (and at least one full context).
Result<uint32_t> poolBlocks(const EngineConfig& c, const Backend& backend, uint64_t blockBytes, int32_t ctx) {
    const uint64_t perContext = (static_cast<uint64_t>(ctx) + kBlockSize - 1) / kBlockSize;
    uint64_t blocks;
    if (c.kvBytes) {
        blocks = c.kvBytes / blockBytes;
    } else {
        uint64_t freeBytes = 0;
        for (const auto& d : backend.memoryStats()) freeBytes += d.free;
        if (freeBytes == 0) freeBytes = 2ull << 30;
        const uint64_t want = perContext * static_cast<uint64_t>(std::max(1, c.maxSeqs));
        blocks = std::max(perContext, std::min(want, freeBytes / 2 / blockBytes));
    }
    if (blocks == 0)
        return makeError(ErrorCode::OutOfMemory, "the KV cache memory (" + std::to_string(c.kvBytes) +
                                                     " bytes) is smaller than one block (" + std::to_string(blockBytes) +
                                                     " bytes)");
    return static_cast<uint32_t>(std::min<uint64_t>(blocks, INT32_MAX / kBlockSize));
}

// The RAM tier's default size: a tenth of the memory available now, at most 16 GiB.
uint64_t autoRamCacheBytes() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    uint64_t kb = 0;
    while (in >> key >> kb >> unit)
        if (key == "MemAvailable:") return std::min<uint64_t>(kb * 1024 / 10, 16ull << 30);
    return 0;
}

}  // namespace

Result<std::unique_ptr<EngineCore>> EngineCore::create(std::unique_ptr<Backend> backend,
                                                       std::shared_ptr<const Tokenizer> tokenizer,
                                                       const EngineConfig& config, const EngineCoreOptions& options) {
    if (!backend) return makeError(ErrorCode::InvalidArgument, "no backend");
    const uint64_t blockBytes = backend->kvBlockBytes(config.kvType);
    if (blockBytes == 0) return makeError(ErrorCode::InvalidArgument, backend->name() + " does not support this KV dtype");
    const int32_t ctx = config.contextLength > 0 ? config.contextLength : std::max(1, options.modelContext);
    auto blocks = poolBlocks(config, *backend, blockBytes, ctx);
    HEARTH_TRY(blocks);
    HEARTH_TRY(backend->allocateKv(*blocks, config.kvType));

    std::unique_ptr<HostBlockCache> ram;
    const uint64_t ramBytes = config.ramCacheBytes == EngineConfig::kRamCacheAuto ? autoRamCacheBytes() : config.ramCacheBytes;
    if (ramBytes >= blockBytes) ram = std::make_unique<HostBlockCache>(ramBytes, blockBytes);
    std::unique_ptr<DiskBlockCache> disk;
    if (!config.diskCacheDir.empty()) {
        auto d = DiskBlockCache::open(config.diskCacheDir, options.fingerprint,
                                      config.diskCacheBytes ? config.diskCacheBytes : kDefaultDiskCacheBytes, blockBytes);
        HEARTH_TRY(d);
        disk = std::move(*d);
    }

    std::unique_ptr<EngineCore> core(new EngineCore());
    core->config_ = config;
    core->options_ = options;
    core->vocab_ = backend->vocabSize();
    core->kv_ = std::make_unique<KvCacheManager>(*backend, *blocks, blockBytes, std::move(ram), std::move(disk));
    SchedulerConfig sc;
    sc.maxSeqs = config.maxSeqs;
    sc.maxBatchTokens = config.maxBatchTokens;
    sc.prefillChunk = config.prefillChunk;
    sc.contextLength = ctx;
    core->scheduler_ = std::make_unique<Scheduler>(sc, *core->kv_);
    core->backend_ = std::move(backend);
    core->tokenizer_ = std::move(tokenizer);
    return core;
}

EngineCore::~EngineCore() {
    // The KV manager refers to the backend: destroy it first.
    scheduler_.reset();
    kv_.reset();
}

void EngineCore::add(RequestId id, const GenerationRequest& req, std::shared_ptr<TokenSink> sink,
                     Clock::time_point submitted) {
    auto stream = std::make_unique<RequestStream>(id, std::move(sink), tokenizer_, req, submitted);
    std::vector<TokenId> tokens = req.promptTokens;
    if (tokens.empty() && (tokenizer_ || !req.promptText.empty())) {  // "" still gets BOS per metadata
        if (!tokenizer_) {
            stream->fail(makeError(ErrorCode::InvalidArgument, "this engine has no tokenizer: send prompt tokens"));
            return;
        }
        tokens = tokenizer_->encode(req.promptText, TokenizeOptions{req.addSpecial, req.parseSpecial});
    }
    for (TokenId t : tokens) {
        if (t < 0 || static_cast<uint32_t>(t) >= vocab_) {
            stream->fail(makeError(ErrorCode::InvalidArgument, "prompt token " + std::to_string(t) +
                                                                   " is outside the vocabulary of " +
                                                                   std::to_string(vocab_)));
            return;
        }
    }
    if (req.constraint.kind != OutputConstraint::Kind::None) {
        if (!tokenizer_) {
            stream->fail(makeError(ErrorCode::InvalidArgument, "constrained output needs the model's tokenizer"));
            return;
        }
        auto c = constraint::JsonConstraint::create(req.constraint, *tokenizer_);
        if (!c) {
            stream->fail(c.error());
            return;
        }
        stream->setConstraint(std::move(*c));
    }
    ++totalRequests_;
    totalPromptTokens_ += tokens.size();
    if (req.maxTokens == 0 && !tokens.empty()) {
        Usage u;
        u.promptTokens = static_cast<int>(tokens.size());
        stream->finish(FinishReason::Length, u, Clock::now());
        return;
    }

    auto r = std::make_unique<Request>();
    r->id = id;
    r->tokens = std::move(tokens);
    r->maxOutputTokens = req.maxTokens < 0 ? INT32_MAX : req.maxTokens;
    if (!req.ignoreEos && tokenizer_) r->stopTokens = tokenizer_->endOfGeneration();
    r->stopTokens.insert(r->stopTokens.end(), req.stopTokens.begin(), req.stopTokens.end());
    r->user = req.user;
    r->priority = req.priority;
    // Without prefix caching a request still hashes its blocks (preemption resumes through them),
    // but under a key nobody else has.
    r->extraKey = BlockHasher::extraKey(options_.fingerprint, config_.prefixCaching
                                                                  ? req.cacheSalt
                                                                  : req.cacheSalt + "\x1fprivate:" + std::to_string(id));
    if (Status s = scheduler_->add(std::move(r)); !s.ok()) {
        stream->fail(s.error());
        return;
    }
    streams_.emplace(id, std::move(stream));
}

void EngineCore::cancel(RequestId id) {
    if (scheduler_->finish(id, FinishReason::Cancelled)) deliverFinished(Clock::now());
}

Status EngineCore::step() {
    if (!scheduler_->hasWork()) return Status::success();
    const auto t0 = Clock::now();
    const SchedulerOutput out = scheduler_->schedule();
    if (out.empty()) return Status::success();
    scheduler_->fillBatch(out, batch_);
    if (Status st = forwardAndSample(out); !st.ok()) {
        for (const auto& s : out.seqs) {
            errors_[s.id] = st.error();
            scheduler_->finish(s.id, FinishReason::Error);
        }
        deliverFinished(Clock::now());
        return st;
    }
    const std::vector<SeqUpdate> updates = scheduler_->update(out, sampled_);
    const auto now = Clock::now();

    size_t k = 0;
    for (const auto& u : updates) {
        if (!u.hasToken) continue;
        RequestStream& stream = *streams_.at(u.id);
        const bool first = !stream.hasFirstToken();
        const bool stopToken = u.finished && u.reason == FinishReason::Stop;
        const double gap = stream.acceptToken(u.token, stopToken, std::move(sampledLogprobs_[k++]), now);
        if (first) metrics_.recordTtft(gap);
        else metrics_.recordItl(gap);
        ++totalGeneratedTokens_;
        if (!u.finished && stream.stopStringMatched()) scheduler_->finish(u.id, FinishReason::Stop);
        // A constrained document that closed ends the request (no end-of-generation token needed).
        if (auto* c = stream.constraint(); c && c->accept(u.token) && c->isFinished() && !u.finished &&
                                           !stream.stopStringMatched())
            scheduler_->finish(u.id, FinishReason::Stop);
    }
    for (const auto& s : out.seqs) {
        auto it = streams_.find(s.id);
        if (it != streams_.end() && scheduler_->request(s.id)) it->second->emitStep();  // finishing ones emit in finish()
    }
    deliverFinished(now);

    int64_t prefill = 0, decode = 0;
    for (const auto& s : out.seqs) {
        prefill += s.promptTokens;
        decode += s.numTokens - s.promptTokens;
    }
    metrics_.recordStep(now, std::chrono::duration<double>(now - t0).count(), prefill, decode);
    return Status::success();
}

Status EngineCore::forwardAndSample(const SchedulerOutput& out) {
    sampled_.clear();
    sampledLogprobs_.clear();
    // Sampling on the device sends back token ids instead of vocab-wide logit rows; it is used
    // when every row of the step asks only for what the device sampler does.
    bool onDevice = backend_->canSampleOnDevice() && out.numSampled() > 0;
    for (const auto& s : out.seqs)
        if (onDevice && s.sample && !streams_.at(s.id)->deviceSamplable()) onDevice = false;
    if (onDevice) {
        rowSampling_.clear();
        for (const auto& s : out.seqs) {
            if (!s.sample) continue;
            Sampler& sm = streams_.at(s.id)->sampler();
            const SamplingParams& p = sm.params();
            Backend::RowSampling r;
            r.temperature = p.temperature;
            r.topK = p.topK;
            r.topP = p.topP;
            r.minP = p.minP;
            r.uniform = p.temperature > 0 ? sm.uniform() : 0.0f;  // the request's own RNG, as on the host
            rowSampling_.push_back(r);
        }
        HEARTH_TRY(backend_->forwardSample(batch_, rowSampling_, sampled_));
        if (sampled_.size() != rowSampling_.size())
            return makeError(ErrorCode::Internal, backend_->name() + " sampled a wrong number of rows");
        sampledLogprobs_.resize(sampled_.size());
        return Status::success();
    }

    HEARTH_TRY(backend_->forward(batch_, logits_));
    size_t row = 0;
    for (const auto& s : out.seqs) {
        if (!s.sample) continue;
        const float* logits = logits_.data() + row * vocab_;
        ++row;
        RequestStream& stream = *streams_.at(s.id);
        const Request& r = *scheduler_->request(s.id);
        const std::vector<bool>* allowed = nullptr;
        if (auto* c = stream.constraint()) {
            c->allowedTokens(allowed_);
            allowed_.resize(vocab_, false);  // ids past the tokenizer's vocabulary are never valid output
            allowed = &allowed_;
        }
        const TokenId t = stream.sampler().sample(logits, static_cast<int32_t>(vocab_), r.tokens, allowed);
        sampled_.push_back(t);
        if (stream.logprobs() > 0)
            sampledLogprobs_.push_back(Sampler::logprobs(logits, static_cast<int32_t>(vocab_), t, stream.logprobs()));
        else
            sampledLogprobs_.emplace_back();
    }
    return Status::success();
}

void EngineCore::deliverFinished(Clock::time_point now) {
    auto finished = scheduler_->takeFinished();
    if (!finished.empty() && beforeFinishes_) beforeFinishes_();
    for (auto& r : finished) {
        auto it = streams_.find(r->id);
        if (it == streams_.end()) continue;
        if (r->finishReason == FinishReason::Error) {
            auto e = errors_.find(r->id);
            it->second->fail(e != errors_.end() ? e->second : makeError(ErrorCode::Internal, "request failed"));
            if (e != errors_.end()) errors_.erase(e);
        } else {
            Usage u;
            u.promptTokens = r->numPromptTokens;
            u.completionTokens = r->numOutputTokens();
            u.cachedPromptTokens = std::max(0, r->cachedPromptTokens);
            u.computedPromptTokens = r->computedPromptTokens;
            it->second->finish(r->finishReason, u, now);
        }
        streams_.erase(it);
    }
}

void EngineCore::shutdown() {
    std::vector<RequestId> ids;
    for (const auto& [id, s] : streams_) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    for (RequestId id : ids) scheduler_->finish(id, FinishReason::Cancelled);
    deliverFinished(Clock::now());
    kv_->persistToDisk();
}

EngineStats EngineCore::stats(bool withDevices) const {
    EngineStats s;
    const SchedulerStats ss = scheduler_->stats();
    s.running = ss.running;
    s.waiting = ss.waiting;
    s.swapped = ss.swapped;
    s.kvBlocksTotal = kv_->numBlocks();
    s.kvBlocksUsed = kv_->pool().numUsed();
    s.kvBlocksCached = kv_->pool().numCached();
    if (kv_->ram()) {
        s.ramBlocksTotal = kv_->ram()->capacity();
        s.ramBlocksUsed = kv_->ram()->numUsed();
    }
    if (kv_->disk()) s.diskBlocksUsed = kv_->disk()->numBlocks();
    s.prefixQueryTokens = ss.prefixQueryTokens;
    s.prefixHitTokensDevice = ss.hitTokensDevice;
    s.prefixHitTokensRam = ss.hitTokensRam;
    s.prefixHitTokensDisk = ss.hitTokensDisk;
    s.totalPromptTokens = totalPromptTokens_;
    s.totalGeneratedTokens = totalGeneratedTokens_;
    s.totalRequests = totalRequests_;
    s.preemptions = ss.preemptions;
    s.steps = ss.steps;
    metrics_.fill(s, Clock::now());
    if (withDevices) s.devices = backend_->memoryStats();
    return s;
}

}  // namespace hearth
