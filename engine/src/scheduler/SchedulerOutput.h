#pragma once
// What one scheduling step decided (data only): the sequences that run, the slice of tokens each
// contributes, and whether its last token's logits are sampled.
//
// Invariants: each request appears at most once in seqs; startPos equals that request's computed
// tokens when the step was scheduled and startPos + numTokens - numDraft <= its token count; sample
// is true exactly when the slice reaches the request's last known token; numDraft > 0 only for a
// decoding slice (its one pending token, then numDraft draft tokens, each with a logits row); a
// request in preempted does not appear in seqs.

#include <cstdint>
#include <vector>

#include "hearth/engine.h"

namespace hearth {

struct ScheduledSeq {
    RequestId id = 0;
    int32_t startPos = 0;
    int32_t numTokens = 0;
    bool sample = false;
    int32_t promptTokens = 0;  // how many of the slice's tokens are prompt positions (for stats)
    int32_t numDraft = 0;      // speculative tokens at the end of the slice (scored, then verified)
    int32_t logitRows() const { return sample ? 1 + numDraft : 0; }
};

struct SchedulerOutput {
    uint64_t step = 0;
    std::vector<ScheduledSeq> seqs;
    std::vector<RequestId> preempted;
    int32_t numTokens = 0;

    bool empty() const { return seqs.empty(); }
    int32_t numSampled() const {
        int32_t n = 0;
        for (const auto& s : seqs) n += s.sample;
        return n;
    }
    int32_t numDraftTokens() const {
        int32_t n = 0;
        for (const auto& s : seqs) n += s.numDraft;
        return n;
    }
};

// What update() did to one scheduled sequence: the tokens appended this step (the accepted drafts,
// then the target's own token; at most one without speculation). A stop condition met partway
// ends the list at the token that met it.
struct SeqUpdate {
    RequestId id = 0;
    std::vector<TokenId> tokens;
    int32_t draftProposed = 0, draftAccepted = 0;
    bool finished = false;
    FinishReason reason = FinishReason::Stop;
    bool hasToken() const { return !tokens.empty(); }
};

}  // namespace hearth
