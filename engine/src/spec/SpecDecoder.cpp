#include "spec/SpecDecoder.h"

#include <algorithm>

namespace hearth {
namespace {

constexpr double kDecay = 0.75;       // per verified step: a sequence's acceptance rate follows its text
constexpr double kGlobalDecay = 0.98;
constexpr double kPriorWeight = 2.0;  // tokens' worth of the proposer-wide rate in a new sequence's estimate
constexpr double kDefaultAlpha = 0.6;

// The distribution a draft model samples from for a sampled request: the same truncation and
// temperature, without penalties (any q keeps the output exact; a closer one is accepted more).
SamplingParams draftParams(const SamplingParams& p) {
    SamplingParams q = p;
    q.repeatPenalty = 1.0f;
    q.frequencyPenalty = 0.0f;
    q.presencePenalty = 0.0f;
    q.logprobs = 0;
    if (p.seed != 0xFFFFFFFFFFFFFFFFull) q.seed = p.seed ^ 0xD4AF7D4AF7D4AF7Dull;
    return q;
}

}  // namespace

Result<std::unique_ptr<SpecDecoder>> SpecDecoder::create(const SpecConfig& config, SpecResources res, KvDType kvType,
                                                         int32_t maxBatchTokens) {
    if (config.maxDraft < 1 || config.maxDraft > 64)
        return makeError(ErrorCode::InvalidArgument, "the draft length limit must be between 1 and 64");
    if (config.minNgram < 1 || config.maxNgram < config.minNgram || config.maxNgram > 64)
        return makeError(ErrorCode::InvalidArgument, "n-gram sizes must satisfy 1 <= min <= max <= 64");
    std::unique_ptr<DraftModelRunner> draft;
    switch (config.method) {
        case SpecMethod::None:
        case SpecMethod::NGram: break;
        case SpecMethod::Index:
            if (!res.index) return makeError(ErrorCode::InvalidArgument, "speculative decoding with an index needs the index");
            break;
        case SpecMethod::Draft: {
            if (!res.draftBackend) return makeError(ErrorCode::InvalidArgument, "speculative decoding needs a draft model");
            auto r = DraftModelRunner::create(std::move(res.draftBackend), kvType, std::max(1u, res.draftKvBlocks),
                                              res.draftContext, maxBatchTokens);
            HEARTH_TRY(r);
            draft = std::move(*r);
            break;
        }
    }
    return std::unique_ptr<SpecDecoder>(new SpecDecoder(config, std::move(res), std::move(draft)));
}

SpecDecoder::SpecDecoder(const SpecConfig& config, SpecResources res, std::unique_ptr<DraftModelRunner> draft)
    : config_(config), index_(std::move(res.index)), draft_(std::move(draft)), planner_(config.method == SpecMethod::Draft) {}

SpecDecoder::SeqState& SpecDecoder::state(const Request& r) {
    auto& p = states_[r.id];
    if (!p) p = std::make_unique<SeqState>(config_.minNgram, config_.maxNgram);
    return *p;
}

double SpecDecoder::alpha(const SeqState& st, DraftSource s) const {
    const size_t i = static_cast<size_t>(s);
    const double g = globalAcc_[i] + globalRej_[i];
    const double prior = g > 0 ? (globalAcc_[i] + kDefaultAlpha) / (g + 1) : kDefaultAlpha;
    return (st.acc[i] + kPriorWeight * prior) / (st.acc[i] + st.rej[i] + kPriorWeight);
}

DraftSource SpecDecoder::lookup(SeqState& st, const Request& r, int32_t limit) {
    const size_t have = st.ngram.tokens().size();
    if (have < r.tokens.size())
        st.ngram.append(std::span<const TokenId>(r.tokens).subspan(have));
    st.ngram.propose(limit, st.proposal);
    if (!st.proposal.empty()) return DraftSource::NGram;
    if (index_) {
        index_->propose(r.tokens, config_.minNgram, config_.maxNgram, limit, st.proposal);
        if (!st.proposal.empty()) return DraftSource::Index;
    }
    return DraftSource::None;
}

Status SpecDecoder::propose(std::span<const Target> seqs) {
    for (const Target& t : seqs) t.request->draft.clear();
    if (config_.method == SpecMethod::None || seqs.empty() ||
        static_cast<int32_t>(seqs.size()) >= std::max(1, config_.disableAboveBatch))
        return Status::success();

    planSeqs_.assign(seqs.size(), DraftPlanner::Seq{});
    for (size_t i = 0; i < seqs.size(); ++i) {
        const Request& r = *seqs[i].request;
        SeqState& st = state(r);
        st.source = DraftSource::None;
        st.proposal.clear();
        // The target's own token follows the accepted drafts, so k drafts emit up to k + 1 tokens.
        const int32_t remaining = r.maxOutputTokens - r.numOutputTokens() - 1;
        const int32_t limit = std::min(config_.maxDraft, remaining);
        if (!seqs[i].eligible || limit <= 0) continue;
        if (draft_) {
            st.source = DraftSource::Model;
            planSeqs_[i].limit = limit;
        } else {
            st.source = lookup(st, r, limit);
            planSeqs_[i].limit = static_cast<int32_t>(st.proposal.size());
        }
        if (st.source != DraftSource::None) planSeqs_[i].alpha = alpha(st, st.source);
    }
    if (config_.adaptive) {
        planner_.plan(planSeqs_, planK_);
    } else {
        planK_.resize(seqs.size());
        for (size_t i = 0; i < seqs.size(); ++i) planK_[i] = planSeqs_[i].limit;
    }

    if (!draft_) {
        for (size_t i = 0; i < seqs.size(); ++i) {
            if (planK_[i] <= 0) continue;
            SeqState& st = *states_.at(seqs[i].request->id);
            seqs[i].request->draft.assign(st.proposal.begin(), st.proposal.begin() + planK_[i]);
        }
        return Status::success();
    }

    jobs_.clear();
    for (size_t i = 0; i < seqs.size(); ++i) {
        if (planK_[i] <= 0) continue;
        const Request& r = *seqs[i].request;
        SeqState& st = *states_.at(r.id);
        st.dists.clear();
        Sampler* q = nullptr;
        if (!seqs[i].sampler->greedy()) {
            if (!st.draftSampler) st.draftSampler = std::make_unique<Sampler>(draftParams(seqs[i].sampler->params()));
            q = st.draftSampler.get();
        }
        DraftModelRunner::Job job;
        job.id = r.id;
        job.tokens = r.tokens;
        job.k = planK_[i];
        job.sampler = q;
        job.drafts = &seqs[i].request->draft;
        job.dists = q ? &st.dists : nullptr;
        jobs_.push_back(job);
    }
    if (jobs_.empty()) return Status::success();
    Status st = draft_->propose(jobs_);
    if (draft_->lastRoundSeconds() > 0) planner_.recordDraftRound(draft_->lastRoundSeconds());
    return st;
}

const std::vector<std::vector<Candidate>>* SpecDecoder::draftDists(RequestId id) const {
    auto it = states_.find(id);
    if (it == states_.end() || it->second->source != DraftSource::Model || it->second->dists.empty()) return nullptr;
    return &it->second->dists;
}

void SpecDecoder::observe(const SeqUpdate& u) {
    if (u.draftProposed <= 0) return;
    auto it = states_.find(u.id);
    if (it == states_.end()) return;
    SeqState& st = *it->second;
    const size_t s = static_cast<size_t>(st.source);
    counters_.proposed[s] += static_cast<uint64_t>(u.draftProposed);
    counters_.accepted[s] += static_cast<uint64_t>(u.draftAccepted);
    // Geometric model: the accepted drafts succeeded, the first rejected one (if any) failed, and
    // the ones after it were never tested.
    const double rejected = u.draftAccepted < u.draftProposed ? 1.0 : 0.0;
    st.acc[s] = st.acc[s] * kDecay + u.draftAccepted;
    st.rej[s] = st.rej[s] * kDecay + rejected;
    globalAcc_[s] = globalAcc_[s] * kGlobalDecay + u.draftAccepted;
    globalRej_[s] = globalRej_[s] * kGlobalDecay + rejected;
}

void SpecDecoder::release(RequestId id) {
    states_.erase(id);
    if (draft_) draft_->release(id);
}

}  // namespace hearth
