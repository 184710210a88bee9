#pragma once
// The scheduler's view of one generation request: its tokens (prompt + output), how many of them
// have KV on the device, its fairness key and priority, and its block hashes.
//
// Invariants:
// - 0 <= numComputedTokens <= tokens.size(); while Running, numComputedTokens < tokens.size()
//   (the newest token always still needs its KV computed before the next token can be sampled);
// - tokens.size() >= numPromptTokens >= 1 and tokens only grow (append-only);
// - blockHashes[i] is the hash of tokens [i*kBlockSize, (i+1)*kBlockSize) under extraKey, for every
//   full block of tokens (kept up to date by the scheduler whenever tokens grow);
// - swapSlot >= 0 only while Preempted: a RAM slot holding the partial block that ends at
//   swapTokens (swapTokens % kBlockSize != 0);
// - draft holds speculative tokens proposed for the step being scheduled (they would follow
//   tokens); they are never part of tokens or blockHashes, and are cleared by every update().

#include <cstdint>
#include <string>
#include <vector>

#include "hearth/engine.h"
#include "kv/Hash128.h"

namespace hearth {

enum class RequestStatus { Waiting, Running, Preempted, Finished };

struct Request {
    RequestId id = 0;
    std::vector<TokenId> tokens;
    int32_t numPromptTokens = 0;
    int32_t numComputedTokens = 0;
    int32_t maxOutputTokens = 0;
    std::vector<TokenId> stopTokens;  // sampled token in this list ends the request (reason Stop)
    std::string user;
    int priority = 0;
    Hash128 extraKey;
    std::vector<Hash128> blockHashes;

    RequestStatus status = RequestStatus::Waiting;
    uint64_t arrival = 0;     // submission order
    uint64_t admittedAt = 0;  // order of the latest admission (newest is preempted first)
    int32_t swapSlot = -1, swapTokens = 0;
    std::vector<TokenId> draft;

    // Accounting.
    int32_t cachedPromptTokens = -1;    // prefix hit at first admission (-1: not admitted yet)
    int32_t computedPromptTokens = 0;   // prompt positions run through the model (recomputes too)
    int32_t numPreemptions = 0;
    int32_t draftProposed = 0, draftAccepted = 0;  // speculative tokens verified / accepted
    FinishReason finishReason = FinishReason::Stop;

    int32_t numTokens() const { return static_cast<int32_t>(tokens.size()); }
    int32_t numOutputTokens() const { return numTokens() - numPromptTokens; }
    int32_t pendingTokens() const { return numTokens() - numComputedTokens; }
};

}  // namespace hearth
