#pragma once
// What one scheduling step decided (data only): the sequences that run, the slice of tokens each
// contributes, and whether its last token's logits are sampled.
//
// Invariants: each request appears at most once in seqs; startPos equals that request's computed
// tokens when the step was scheduled and startPos + numTokens <= its token count; sample is true
// exactly when the slice reaches the request's last known token; a request in preempted does not
// appear in seqs.

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
};

// What update() did to one scheduled sequence.
struct SeqUpdate {
    RequestId id = 0;
    bool hasToken = false;     // a token was sampled and appended
    TokenId token = -1;
    bool finished = false;
    FinishReason reason = FinishReason::Stop;
};

}  // namespace hearth
