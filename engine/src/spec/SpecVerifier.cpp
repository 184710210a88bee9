#include "spec/SpecVerifier.h"

#include <algorithm>

namespace hearth {
namespace {

bool usesHistory(const SamplingParams& p) {
    return p.repeatPenalty != 1.0f || p.frequencyPenalty != 0.0f || p.presencePenalty != 0.0f;
}

}  // namespace

int SpecVerifier::verifyArgmax(std::span<const TokenId> drafts, std::span<const TokenId> target,
                               std::vector<TokenId>& out) {
    int accepted = 0;
    for (size_t j = 0; j < target.size(); ++j) {
        out.push_back(target[j]);
        if (j >= drafts.size() || drafts[j] != target[j]) break;
        ++accepted;
    }
    return accepted;
}

TokenId SpecVerifier::acceptOrResample(Sampler& sampler, const std::vector<Candidate>& p,
                                       const std::vector<Candidate>& q, TokenId d, int32_t vocab, bool& accepted) {
    qDense_.resize(static_cast<size_t>(vocab), 0.0f);
    for (const Candidate& c : q)
        if (c.id >= 0 && c.id < vocab) qDense_[c.id] = c.prob;
    float pd = 0;
    for (const Candidate& c : p)
        if (c.id == d) pd = c.prob;
    const float qd = d >= 0 && d < vocab ? qDense_[d] : 0.0f;
    // u < p/q without dividing (q(d) > 0: d was drawn from q; a q without d accepts when p has it).
    const float u = sampler.uniform();
    accepted = qd <= 0 ? pd > 0 : u * qd < pd;
    TokenId emitted = d;
    if (!accepted) {
        residual_.clear();
        double sum = 0;
        for (const Candidate& c : p) {
            const float r = c.prob - qDense_[c.id];
            if (r > 0) {
                residual_.push_back({c.id, c.logit, r});
                sum += r;
            }
        }
        if (residual_.empty()) {
            // p <= q everywhere only happens through rounding (they are both normalised): p itself.
            emitted = sampler.draw(p);
        } else {
            for (Candidate& c : residual_) c.prob = static_cast<float>(c.prob / sum);
            emitted = sampler.draw(residual_);
        }
    }
    for (const Candidate& c : q)
        if (c.id >= 0 && c.id < vocab) qDense_[c.id] = 0.0f;
    return emitted;
}

int SpecVerifier::verify(Sampler& sampler, const Input& in, std::vector<TokenId>& out) {
    const bool withHistory = usesHistory(sampler.params());
    if (withHistory) history_.assign(in.history.begin(), in.history.end());
    const bool pointMass = !in.draftDists || sampler.greedy();
    int accepted = 0;
    for (size_t j = 0; j <= in.drafts.size(); ++j) {
        const float* row = in.rows + j * static_cast<size_t>(in.vocab);
        std::span<const TokenId> hist = withHistory ? std::span<const TokenId>(history_) : in.history;
        sampler.distribution(row, in.vocab, hist, dist_);
        if (j == in.drafts.size()) {  // every draft accepted: the target's own next token
            out.push_back(sampler.draw(dist_));
            break;
        }
        const TokenId d = in.drafts[j];
        TokenId x;
        bool ok;
        if (pointMass) {
            x = sampler.draw(dist_);
            ok = x == d;
        } else {
            x = acceptOrResample(sampler, dist_, (*in.draftDists)[j], d, in.vocab, ok);
        }
        out.push_back(x);
        if (!ok) break;
        ++accepted;
        if (withHistory) history_.push_back(d);
    }
    return accepted;
}

}  // namespace hearth
