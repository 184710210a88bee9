#pragma once
// Verification of one sequence's draft tokens against the target model's logits (speculative
// decoding). Row j of the target scores the position of draft j (row 0 follows the sequence's last
// accepted token); p_j is the request's own final distribution there (Sampler::distribution, with
// the drafts before j appended to the history, so penalties see what plain decoding would).
//
// - Point-mass drafts (n-gram, domain index, and every greedy request): draw x_j ~ p_j with the
//   request's sampler; accept draft j when x_j equals it, otherwise emit x_j and stop. This is
//   rejection sampling for the draft distribution q = δ(d): d is accepted with probability p(d),
//   and a rejection emits a draw from p without d, renormalised. It also consumes the request's
//   RNG exactly as plain sampling does, so a seeded request gives the same tokens with and
//   without speculation (greedy: the target's argmax, always).
// - Drafts drawn from a draft model's distribution q_j: accept d_j with probability
//   min(1, p_j(d_j) / q_j(d_j)); on rejection emit a draw from max(0, p_j - q_j), renormalised.
// - When every draft is accepted, one more token is drawn from the last row (p_k).
// In both cases each emitted token is distributed exactly as the target alone would sample it.
//
// Invariants: verify() appends 1 + accepted tokens to out and returns accepted (<= drafts.size());
// the rows hold drafts.size() + 1 rows of vocab logits.

#include <cstdint>
#include <span>
#include <vector>

#include "sampling/Sampler.h"

namespace hearth {

class SpecVerifier {
public:
    struct Input {
        const float* rows = nullptr;  // (drafts.size() + 1) × vocab logits
        int32_t vocab = 0;
        std::span<const TokenId> drafts;
        // q_j for each draft (a draft model's sampled distributions); null: point masses.
        const std::vector<std::vector<Candidate>>* draftDists = nullptr;
        std::span<const TokenId> history;  // the sequence before the first draft
    };

    int verify(Sampler& sampler, const Input& in, std::vector<TokenId>& out);

    // Greedy verification against the target's argmax per row (as a device sampler returns it):
    // accepts the longest matching prefix and appends it plus the target's next token.
    static int verifyArgmax(std::span<const TokenId> drafts, std::span<const TokenId> targetTokens,
                            std::vector<TokenId>& out);

private:
    // Accept d under min(1, p(d)/q(d)), else draw from the residual; returns the emitted token.
    TokenId acceptOrResample(Sampler& sampler, const std::vector<Candidate>& p, const std::vector<Candidate>& q,
                             TokenId d, int32_t vocab, bool& accepted);

    std::vector<TokenId> history_;
    std::vector<Candidate> dist_, residual_;
    std::vector<float> qDense_;  // q over the vocabulary, zero outside the current q's support
};

}  // namespace hearth
