#include "sampling/Sampler.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace hearth {
namespace {

uint64_t seedFor(uint64_t s) {
    if (s != 0xFFFFFFFFFFFFFFFFull) return s;
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace

Sampler::Sampler(const SamplingParams& params) : params_(params), rng_(seedFor(params.seed)) {}

float Sampler::uniform() {
    // 24 random bits -> [0, 1) exactly representable.
    return static_cast<float>(rng_() >> 40) * (1.0f / 16777216.0f);
}

void Sampler::penalise(std::vector<float>& l, std::span<const TokenId> history) const {
    const bool rep = params_.repeatPenalty != 1.0f;
    const bool freq = params_.frequencyPenalty != 0.0f || params_.presencePenalty != 0.0f;
    if ((!rep && !freq) || history.empty()) return;
    const size_t n = params_.repeatLastN < 0 ? history.size()
                                             : std::min(history.size(), static_cast<size_t>(params_.repeatLastN));
    std::unordered_map<TokenId, int> counts;
    for (size_t i = history.size() - n; i < history.size(); ++i) counts[history[i]]++;
    for (const auto& [id, count] : counts) {
        if (id < 0 || static_cast<size_t>(id) >= l.size()) continue;
        float& x = l[id];
        if (rep) x = x > 0 ? x / params_.repeatPenalty : x * params_.repeatPenalty;
        x -= static_cast<float>(count) * params_.frequencyPenalty + (count > 0 ? params_.presencePenalty : 0.0f);
    }
}

void Sampler::distribution(const float* logits, int32_t nVocab, std::span<const TokenId> history,
                           std::vector<Candidate>& out, const std::vector<bool>* allowed) const {
    work_.assign(logits, logits + nVocab);
    for (TokenId b : banned_)
        if (b >= 0 && b < nVocab) work_[b] = -INFINITY;
    if (allowed)
        for (int32_t i = 0; i < nVocab && i < static_cast<int32_t>(allowed->size()); ++i)
            if (!(*allowed)[i]) work_[i] = -INFINITY;
    penalise(work_, history);
    out.clear();
    float mx = -INFINITY;
    int32_t best = 0;
    for (int32_t i = 0; i < nVocab; ++i)
        if (work_[i] > mx) { mx = work_[i]; best = i; }
    if (greedy() || !std::isfinite(mx)) {
        out.push_back({best, work_[best], 1.0f});
        return;
    }
    const float temp = params_.temperature;
    // Tokens more than 40/T below the max carry less than e^-40 of the mass: drop them before sorting.
    const float floor = mx - 40.0f * std::max(temp, 1e-3f);
    for (int32_t i = 0; i < nVocab; ++i)
        if (work_[i] >= floor) out.push_back({i, work_[i], 0.0f});
    std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
        return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
    });
    if (params_.topK > 0 && out.size() > static_cast<size_t>(params_.topK)) out.resize(params_.topK);
    // Softmax at temperature 1 for the truncation tests, as llama.cpp's top-p/min-p see it.
    auto softmaxAt = [&](float t) {
        double sum = 0;
        for (auto& c : out) {
            c.prob = std::exp((c.logit - mx) / t);
            sum += c.prob;
        }
        for (auto& c : out) c.prob = static_cast<float>(c.prob / sum);
    };
    softmaxAt(1.0f);
    if (params_.topP < 1.0f) {
        double cum = 0;
        size_t keep = out.size();
        for (size_t i = 0; i < out.size(); ++i) {
            cum += out[i].prob;
            if (cum >= params_.topP) { keep = i + 1; break; }
        }
        out.resize(std::max<size_t>(1, keep));
    }
    if (params_.minP > 0.0f) {
        const float thresh = out.front().prob * params_.minP;
        size_t keep = 1;
        while (keep < out.size() && out[keep].prob >= thresh) ++keep;
        out.resize(keep);
    }
    softmaxAt(temp);
}

TokenId Sampler::draw(const std::vector<Candidate>& dist) {
    if (dist.size() == 1) return dist.front().id;
    const float u = uniform();
    float cum = 0;
    for (const auto& c : dist) {
        cum += c.prob;
        if (u < cum) return c.id;
    }
    return dist.back().id;
}

TokenId Sampler::sample(const float* logits, int32_t nVocab, std::span<const TokenId> history,
                        const std::vector<bool>* allowed) {
    distribution(logits, nVocab, history, dist_, allowed);
    return draw(dist_);
}

TokenLogprob Sampler::logprobs(const float* logits, int32_t nVocab, TokenId token, int n) {
    float mx = -INFINITY;
    for (int32_t i = 0; i < nVocab; ++i) mx = std::max(mx, logits[i]);
    double sum = 0;
    for (int32_t i = 0; i < nVocab; ++i) sum += std::exp(static_cast<double>(logits[i] - mx));
    const float logZ = mx + static_cast<float>(std::log(sum));
    TokenLogprob r;
    r.token = token;
    r.logprob = logits[token] - logZ;
    if (n > 0) {
        std::vector<TokenId> idx(nVocab);
        for (int32_t i = 0; i < nVocab; ++i) idx[i] = i;
        const int k = std::min(n, nVocab);
        std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                          [&](TokenId a, TokenId b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
        for (int i = 0; i < k; ++i) r.top.emplace_back(idx[i], logits[idx[i]] - logZ);
    }
    return r;
}

}  // namespace hearth
