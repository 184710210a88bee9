#include "spec/DraftModelRunner.h"

#include <algorithm>
#include <chrono>

namespace hearth {

Result<std::unique_ptr<DraftModelRunner>> DraftModelRunner::create(std::unique_ptr<Backend> backend, KvDType kvType,
                                                                   uint32_t numBlocks, int32_t context,
                                                                   int32_t maxBatchTokens) {
    if (!backend) return makeError(ErrorCode::InvalidArgument, "no draft backend");
    const uint64_t blockBytes = backend->kvBlockBytes(kvType);
    if (blockBytes == 0) return kvDTypeRefused("the draft model's backend", kvType);
    HEARTH_TRY(backend->allocateKv(numBlocks, kvType));
    return std::unique_ptr<DraftModelRunner>(
        new DraftModelRunner(std::move(backend), numBlocks, blockBytes, std::max(1, context), std::max(1, maxBatchTokens)));
}

DraftModelRunner::DraftModelRunner(std::unique_ptr<Backend> backend, uint32_t numBlocks, uint64_t blockBytes,
                                   int32_t context, int32_t maxBatchTokens)
    : backend_(std::move(backend)), context_(context), maxBatchTokens_(maxBatchTokens) {
    kv_ = std::make_unique<KvCacheManager>(*backend_, numBlocks, blockBytes, nullptr, nullptr);
}

DraftModelRunner::~DraftModelRunner() { kv_.reset(); }  // it refers to the backend

const std::vector<TokenId>& DraftModelRunner::cached(uint64_t id) const {
    static const std::vector<TokenId> none;
    auto it = cached_.find(id);
    return it == cached_.end() ? none : it->second;
}

void DraftModelRunner::drop(uint64_t id) {
    kv_->freeSequence(id);
    cached_.erase(id);
}

void DraftModelRunner::release(uint64_t id) { drop(id); }

Status DraftModelRunner::runRound(std::span<Job> jobs, const std::vector<size_t>& rowJobs) {
    next_.clear();
    bool device = backend_->canSampleOnDevice();
    for (size_t j : rowJobs) device = device && !jobs[j].sampler;
    if (device) {
        rows_.assign(rowJobs.size(), Backend::RowSampling{});  // temperature 0: argmax
        return backend_->forwardSample(batch_, rows_, next_);
    }
    HEARTH_TRY(backend_->forward(batch_, logits_));
    const int32_t vocab = static_cast<int32_t>(backend_->vocabSize());
    for (size_t r = 0; r < rowJobs.size(); ++r) {
        const float* row = logits_.data() + r * static_cast<size_t>(vocab);
        Job& job = jobs[rowJobs[r]];
        if (!job.sampler) {
            next_.push_back(static_cast<TokenId>(std::max_element(row, row + vocab) - row));
            continue;
        }
        job.sampler->distribution(row, vocab, {}, dist_);
        next_.push_back(job.sampler->draw(dist_));
        if (job.dists) job.dists->push_back(dist_);
    }
    return Status::success();
}

Status DraftModelRunner::propose(std::span<Job> jobs) {
    lastRoundSeconds_ = 0;
    for (Job& job : jobs) {
        if (job.drafts) job.drafts->clear();
        if (job.dists) job.dists->clear();
    }
    // Round 0: each sequence catches up from its longest cached prefix to its last token.
    batch_ = ForwardBatch{};
    std::vector<size_t> rowJobs;  // jobs that draft, in batch order
    int32_t budget = maxBatchTokens_;
    for (size_t i = 0; i < jobs.size(); ++i) {
        Job& job = jobs[i];
        const int32_t n = static_cast<int32_t>(job.tokens.size());
        job.k = std::min(job.k, context_ - n);
        if (n == 0 || budget <= 0) continue;
        std::vector<TokenId>& cache = cached_[job.id];
        const int32_t limit = std::min<int32_t>(static_cast<int32_t>(cache.size()), n - 1);
        int32_t keep = 0;
        while (keep < limit && cache[keep] == job.tokens[keep]) ++keep;
        if (keep < static_cast<int32_t>(cache.size())) {
            kv_->truncate(job.id, keep);
            cache.resize(keep);
        }
        if (n > context_) continue;  // past the draft model's context: nothing to draft
        const int32_t run = std::min(n - keep, budget);
        if (!kv_->allocateSlots(job.id, keep, run)) {
            drop(job.id);  // the pool is full: this sequence goes without drafts
            continue;
        }
        const bool caughtUp = keep + run == n;
        slice_.assign(job.tokens.begin() + keep, job.tokens.begin() + keep + run);
        batch_.addSequence(slice_, keep, kv_->blockTable(job.id), false, caughtUp && job.k > 0);
        cache.insert(cache.end(), slice_.begin(), slice_.end());
        budget -= run;
        if (caughtUp && job.k > 0) rowJobs.push_back(i);
    }
    if (batch_.seqs.empty()) return Status::success();
    auto fail = [&](const Error& e) {
        for (const auto& job : jobs) drop(job.id);
        for (Job& job : jobs) {
            if (job.drafts) job.drafts->clear();
            if (job.dists) job.dists->clear();
        }
        return Status(e);
    };
    using Clock = std::chrono::steady_clock;
    const bool drafting = !rowJobs.empty();  // otherwise round 0 only caught sequences up
    double seconds = 0;
    int rounds = 0;
    // Round 0 is a drafting round like the others unless it also caught sequences up on tokens
    // the draft model had not seen (a new prompt, a long run without drafts): that catch-up is a
    // one-off prefill, and timing it as a round would make every later round look expensive.
    const bool round0IsDrafting = batch_.numTokens() <= static_cast<int32_t>(2 * batch_.seqs.size());
    auto t0 = Clock::now();
    if (Status st = runRound(jobs, rowJobs); !st.ok()) return fail(st.error());
    if (round0IsDrafting) {
        seconds += std::chrono::duration<double>(Clock::now() - t0).count();
        ++rounds;
    }
    for (size_t r = 0; r < rowJobs.size(); ++r) jobs[rowJobs[r]].drafts->push_back(next_[r]);

    // Rounds 1..k-1: feed each sequence's newest draft to get the next one.
    for (int32_t round = 1;; ++round) {
        std::vector<size_t> more;
        batch_ = ForwardBatch{};
        for (size_t i : rowJobs) {
            Job& job = jobs[i];
            if (static_cast<int32_t>(job.drafts->size()) >= job.k) continue;
            std::vector<TokenId>& cache = cached_[job.id];
            const int32_t pos = static_cast<int32_t>(cache.size());
            if (pos >= context_ || !kv_->allocateSlots(job.id, pos, 1)) continue;
            slice_.assign(1, job.drafts->back());
            batch_.addSequence(slice_, pos, kv_->blockTable(job.id), false, true);
            cache.push_back(slice_[0]);
            more.push_back(i);
        }
        if (more.empty()) break;
        t0 = Clock::now();
        if (Status st = runRound(jobs, more); !st.ok()) return fail(st.error());
        seconds += std::chrono::duration<double>(Clock::now() - t0).count();
        ++rounds;
        for (size_t r = 0; r < more.size(); ++r) jobs[more[r]].drafts->push_back(next_[r]);
        rowJobs.swap(more);
    }
    if (drafting && rounds > 0) lastRoundSeconds_ = seconds / rounds;
    return Status::success();
}

}  // namespace hearth
