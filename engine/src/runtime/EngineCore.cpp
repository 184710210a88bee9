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
                                                       const EngineConfig& config, const EngineCoreOptions& options,
                                                       SpecResources spec) {
    if (!backend) return makeError(ErrorCode::InvalidArgument, "no backend");
    const uint64_t blockBytes = backend->kvBlockBytes(config.kvType);
    if (blockBytes == 0) return kvDTypeRefused(backend->name(), config.kvType);
    const int32_t ctx = config.contextLength > 0 ? config.contextLength : std::max(1, options.modelContext);
    auto blocks = poolBlocks(config, *backend, blockBytes, ctx);
    HEARTH_TRY(blocks);
    HEARTH_TRY(backend->allocateKv(*blocks, config.kvType));

    std::unique_ptr<HostBlockCache> ram;
    const uint64_t ramBytes = config.ramCacheBytes == EngineConfig::kRamCacheAuto ? autoRamCacheBytes() : config.ramCacheBytes;
    if (ramBytes >= blockBytes) {
        ram = std::make_unique<HostBlockCache>(ramBytes, blockBytes);
        // Page-locked where the backend copies over a bus (CUDA: restores several times faster).
        // The cache is destroyed before the backend (member order), which unregisters it first.
        if (ram->memory()) {
            backend->registerHostMemory(ram->memory(), ram->memoryBytes());
            Backend* b = backend.get();
            ram->setRelease([b](uint8_t* p) { b->unregisterHostMemory(p); });
        }
    }
    std::unique_ptr<DiskBlockCache> disk;
    if (!config.diskCacheDir.empty()) {
        auto d = DiskBlockCache::open(config.diskCacheDir, options.fingerprint,
                                      config.diskCacheBytes ? config.diskCacheBytes : kDefaultDiskCacheBytes, blockBytes);
        HEARTH_TRY(d);
        disk = std::move(*d);
    }

    std::unique_ptr<SpecDecoder> specDecoder;
    if (config.spec.method != SpecMethod::None) {
        if (spec.draftBackend && spec.draftBackend->vocabSize() != backend->vocabSize())
            return makeError(ErrorCode::InvalidArgument,
                             "the draft model's vocabulary (" + std::to_string(spec.draftBackend->vocabSize()) +
                                 " tokens) differs from the model's (" + std::to_string(backend->vocabSize()) + ")");
        // The draft's pool: the target's tokens plus each sequence's drafts beyond them.
        if (spec.draftKvBlocks == 0)
            spec.draftKvBlocks = *blocks + static_cast<uint32_t>(std::max(1, config.maxSeqs)) *
                                               static_cast<uint32_t>(2 + config.spec.maxDraft / kBlockSize);
        if (spec.draftContext <= 0) spec.draftContext = ctx;
        auto sd = SpecDecoder::create(config.spec, std::move(spec), config.kvType, config.maxBatchTokens);
        HEARTH_TRY(sd);
        specDecoder = std::move(*sd);
        if (options.specCostRatio >= 0) specDecoder->fixCosts(options.specCostRatio);
    }

    std::unique_ptr<EngineCore> core(new EngineCore());
    core->spec_ = std::move(specDecoder);
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
    spec_.reset();
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

void EngineCore::proposeDrafts() {
    specTargets_.clear();
    for (Request* r : scheduler_->decodingRequests()) {
        RequestStream& stream = *streams_.at(r->id);
        specTargets_.push_back({r, &stream.sampler(), stream.constraint() == nullptr});
    }
    if (Status st = spec_->propose(specTargets_); !st.ok()) {
        // A draft model failure costs this step its drafts, nothing else.
        ++specErrors_;
        for (auto& t : specTargets_) t.request->draft.clear();
    }
}

Status EngineCore::step() {
    if (!scheduler_->hasWork()) return Status::success();
    const auto t0 = Clock::now();
    if (spec_) proposeDrafts();
    const SchedulerOutput out = scheduler_->schedule();
    if (out.empty()) return Status::success();
    scheduler_->fillBatch(out, batch_);
    const auto tForward = Clock::now();
    if (Status st = forwardAndSample(out); !st.ok()) {
        for (const auto& s : out.seqs) {
            errors_[s.id] = st.error();
            scheduler_->finish(s.id, FinishReason::Error);
        }
        deliverFinished(Clock::now());
        return st;
    }
    int64_t prefill = 0;
    for (const auto& s : out.seqs) prefill += s.promptTokens;
    const bool specLearns = spec_ && prefill == 0;  // the cost model learns from pure decode steps
    const double forwardSeconds =
        specLearns || trace_.enabled() ? std::chrono::duration<double>(Clock::now() - tForward).count() : 0.0;
    if (specLearns) spec_->recordStep(out.numTokens, out.numDraftTokens() > 0, forwardSeconds);
    const std::vector<SeqUpdate> updates = scheduler_->update(out, sampled_, sampledCounts_);
    const auto now = Clock::now();

    int64_t decode = 0;
    size_t at = 0, k = 0;  // position in sampledLogprobs_, sampled sequence
    for (size_t i = 0; i < updates.size() && i < out.seqs.size(); ++i) {
        const SeqUpdate& u = updates[i];
        const size_t first = at;
        if (out.seqs[i].sample && k < sampledCounts_.size()) at += static_cast<size_t>(sampledCounts_[k++]);
        if (spec_) spec_->observe(u);
        if (u.hasToken()) decode += emitTokens(u, first, now);
    }
    for (const auto& s : out.seqs) {
        auto it = streams_.find(s.id);
        if (it != streams_.end() && scheduler_->request(s.id)) it->second->emitStep();  // finishing ones emit in finish()
    }
    deliverFinished(now);
    metrics_.recordStep(now, std::chrono::duration<double>(now - t0).count(), prefill, decode);
    if (trace_.enabled())
        trace_.record(static_cast<int32_t>(out.seqs.size()), out.numTokens, out.numDraftTokens(), prefill,
                      forwardSeconds, std::chrono::duration<double>(now - t0).count(), decode);
    return Status::success();
}

int32_t EngineCore::emitTokens(const SeqUpdate& u, size_t firstLogprob, Clock::time_point now) {
    RequestStream& stream = *streams_.at(u.id);
    const int32_t m = static_cast<int32_t>(u.tokens.size());
    for (int32_t j = 0; j < m; ++j) {
        const TokenId t = u.tokens[j];
        const bool last = j == m - 1;
        const bool first = !stream.hasFirstToken();
        const bool stopToken = last && u.finished && u.reason == FinishReason::Stop;  // a stop token ends the list
        std::optional<TokenLogprob> lp;
        if (firstLogprob + j < sampledLogprobs_.size()) lp = std::move(sampledLogprobs_[firstLogprob + j]);
        const double gap = stream.acceptToken(t, stopToken, std::move(lp), now);
        // Tokens verified together arrive together: the step's gap is shared among them.
        if (first) metrics_.recordTtft(gap);
        else if (j == 0) for (int32_t x = 0; x < m; ++x) metrics_.recordItl(gap / m);
        ++totalGeneratedTokens_;
        // Tokens after a stop string (or a closed constrained document) are taken back.
        if (!(last && u.finished) && stream.stopStringMatched()) {
            scheduler_->finish(u.id, FinishReason::Stop, m - 1 - j);
            return j + 1;
        }
        if (auto* c = stream.constraint(); c && c->accept(t) && c->isFinished() && !(last && u.finished) &&
                                           !stream.stopStringMatched()) {
            scheduler_->finish(u.id, FinishReason::Stop, m - 1 - j);
            return j + 1;
        }
    }
    return m;
}

Status EngineCore::forwardAndSample(const SchedulerOutput& out) {
    sampled_.clear();
    sampledCounts_.clear();
    sampledLogprobs_.clear();
    // Sampling on the device sends back token ids instead of vocab-wide logit rows; it is used
    // when every row of the step asks only for what the device sampler does (and drafts are
    // verified greedily: a sampled verification needs the target's probabilities).
    bool onDevice = backend_->canSampleOnDevice() && out.numSampled() > 0;
    for (const auto& s : out.seqs) {
        if (!onDevice || !s.sample) continue;
        RequestStream& stream = *streams_.at(s.id);
        if (!stream.deviceSamplable() || (s.numDraft > 0 && !stream.sampler().greedy())) onDevice = false;
    }
    if (onDevice) {
        rowSampling_.clear();
        for (const auto& s : out.seqs) {
            if (!s.sample) continue;
            Sampler& sm = streams_.at(s.id)->sampler();
            const SamplingParams& p = sm.params();
            Backend::RowSampling r;
            // deviceSamplable(): at most kMaxBanned of them
            const std::vector<TokenId>& banned = sm.bannedTokens();
            std::copy(banned.begin(), banned.end(), r.banned);
            if (s.numDraft > 0) {
                r.topP = 1;  // argmax (temperature 0), with the request's banned tokens
                rowSampling_.insert(rowSampling_.end(), static_cast<size_t>(s.logitRows()), r);
                continue;
            }
            r.temperature = p.temperature;
            r.topK = p.topK;
            r.topP = p.topP;
            r.minP = p.minP;
            r.uniform = p.temperature > 0 ? sm.uniform() : 0.0f;  // the request's own RNG, as on the host
            rowSampling_.push_back(r);
        }
        HEARTH_TRY(backend_->forwardSample(batch_, rowSampling_, rowTokens_));
        if (rowTokens_.size() != rowSampling_.size())
            return makeError(ErrorCode::Internal, backend_->name() + " sampled a wrong number of rows");
        size_t row = 0;
        for (const auto& s : out.seqs) {
            if (!s.sample) continue;
            const size_t rows = static_cast<size_t>(s.logitRows());
            const std::span<const TokenId> got(rowTokens_.data() + row, rows);
            row += rows;
            if (s.numDraft == 0) {
                sampled_.push_back(got[0]);
                sampledCounts_.push_back(1);
                continue;
            }
            const Request& r = *scheduler_->request(s.id);
            const int accepted = SpecVerifier::verifyArgmax(std::span<const TokenId>(r.draft.data(), static_cast<size_t>(s.numDraft)), got, sampled_);
            sampledCounts_.push_back(accepted + 1);
        }
        sampledLogprobs_.resize(sampled_.size());
        return Status::success();
    }

    HEARTH_TRY(backend_->forward(batch_, logits_));
    size_t row = 0;
    for (const auto& s : out.seqs) {
        if (!s.sample) continue;
        const float* logits = logits_.data() + row * vocab_;
        row += static_cast<size_t>(s.logitRows());
        RequestStream& stream = *streams_.at(s.id);
        const Request& r = *scheduler_->request(s.id);
        const size_t before = sampled_.size();
        if (s.numDraft > 0) {
            SpecVerifier::Input in;
            in.rows = logits;
            in.vocab = static_cast<int32_t>(vocab_);
            in.drafts = std::span<const TokenId>(r.draft.data(), static_cast<size_t>(s.numDraft));
            in.draftDists = spec_ ? spec_->draftDists(s.id) : nullptr;
            in.history = r.tokens;
            verifier_.verify(stream.sampler(), in, sampled_);
        } else {
            const std::vector<bool>* allowed = nullptr;
            if (auto* c = stream.constraint()) {
                c->allowedTokens(allowed_);
                allowed_.resize(vocab_, false);  // ids past the tokenizer's vocabulary are never valid output
                allowed = &allowed_;
            }
            sampled_.push_back(stream.sampler().sample(logits, static_cast<int32_t>(vocab_), r.tokens, allowed));
        }
        sampledCounts_.push_back(static_cast<int32_t>(sampled_.size() - before));
        for (size_t j = before; j < sampled_.size(); ++j) {
            if (stream.logprobs() > 0)
                sampledLogprobs_.push_back(Sampler::logprobs(logits + (j - before) * vocab_, static_cast<int32_t>(vocab_),
                                                             sampled_[j], stream.logprobs()));
            else
                sampledLogprobs_.emplace_back();
        }
    }
    return Status::success();
}

void EngineCore::deliverFinished(Clock::time_point now) {
    auto finished = scheduler_->takeFinished();
    if (!finished.empty() && beforeFinishes_) beforeFinishes_();
    for (auto& r : finished) {
        if (spec_) spec_->release(r->id);
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
            u.draftProposed = r->draftProposed;
            u.draftAccepted = r->draftAccepted;
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
    if (spec_) {
        const SpecCounters& c = spec_->counters();
        auto at = [](const auto& a, DraftSource src) { return a[static_cast<size_t>(src)]; };
        s.draftProposedNgram = at(c.proposed, DraftSource::NGram);
        s.draftAcceptedNgram = at(c.accepted, DraftSource::NGram);
        s.draftProposedIndex = at(c.proposed, DraftSource::Index);
        s.draftAcceptedIndex = at(c.accepted, DraftSource::Index);
        s.draftProposedModel = at(c.proposed, DraftSource::Model);
        s.draftAcceptedModel = at(c.accepted, DraftSource::Model);
        s.draftProposed = s.draftProposedNgram + s.draftProposedIndex + s.draftProposedModel;
        s.draftAccepted = s.draftAcceptedNgram + s.draftAcceptedIndex + s.draftAcceptedModel;
        s.specSteps = c.steps;
    }
    metrics_.fill(s, Clock::now());
    if (withDevices) s.devices = backend_->memoryStats();
    return s;
}

}  // namespace hearth
