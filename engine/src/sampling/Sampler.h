#pragma once
// Per-request token sampling from one row of logits.
//
// The chain, in llama.cpp's default order: bans (ignore_eos, constraints) → repetition / frequency /
// presence penalties over the recent history → top-k → top-p → min-p → temperature → draw. A
// temperature of 0 is greedy (argmax after bans and penalties). Each request owns its RNG, seeded from
// its seed, so a sampled output depends only on the request, never on what else is in the batch.
//
// Invariants: distribution() returns candidates sorted by descending probability whose probs sum to
// 1 (within float rounding); sample() draws from exactly that distribution.

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "hearth/engine.h"

namespace hearth {

struct Candidate {
    TokenId id;
    float logit;  // after penalties
    float prob;   // in the final (truncated, tempered) distribution
};

class Sampler {
public:
    explicit Sampler(const SamplingParams& params);

    void setBannedTokens(std::vector<TokenId> banned) { banned_ = std::move(banned); }
    const std::vector<TokenId>& bannedTokens() const { return banned_; }
    const SamplingParams& params() const { return params_; }
    bool greedy() const { return params_.temperature <= 0.0f; }

    // The final distribution for this step (greedy: the single argmax with prob 1). `history` is the
    // sequence so far (prompt + output), used by the penalties. `allowed`, when non-null, masks the
    // vocabulary (constrained decoding): tokens with allowed[id] == false are never chosen.
    void distribution(const float* logits, int32_t nVocab, std::span<const TokenId> history,
                      std::vector<Candidate>& out, const std::vector<bool>* allowed = nullptr) const;

    TokenId sample(const float* logits, int32_t nVocab, std::span<const TokenId> history,
                   const std::vector<bool>* allowed = nullptr);
    // Draw from a prepared distribution (speculative verification reuses it).
    TokenId draw(const std::vector<Candidate>& dist);
    float uniform();  // in [0, 1)

    // log-softmax of the (penalised) logits for `token` and the top `n` alternatives.
    static TokenLogprob logprobs(const float* logits, int32_t nVocab, TokenId token, int n);

private:
    void penalise(std::vector<float>& logits, std::span<const TokenId> history) const;

    SamplingParams params_;
    std::vector<TokenId> banned_;
    std::mt19937_64 rng_;
    mutable std::vector<float> work_;
    std::vector<Candidate> dist_;
};

}  // namespace hearth
