#pragma once
// Prompt-lookup drafting: propose the tokens that followed the most recent earlier occurrence of the
// longest suffix (minN..maxN tokens) of a sequence's own tokens (prompt + accepted output).
//
// Invariants: tokens() is exactly what was appended, in order; for every n in [minN, maxN] the table
// maps the hash of each n-gram ending at position e (exclusive end, e < size()) to the latest such e,
// so a lookup never proposes from the current suffix itself. append() costs O(maxN) per token and
// propose() O(maxN + draft), independent of the context length (no quadratic scans on 32k contexts).
// Hash hits are verified token by token, so a collision can only lose a proposal, never corrupt one.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "hearth/tokenizer.h"

namespace hearth {

class NGramProposer {
public:
    NGramProposer(int minN = 1, int maxN = 4);

    void append(std::span<const TokenId> tokens);
    void append(TokenId t) { append(std::span<const TokenId>(&t, 1)); }
    // Up to maxDraft tokens (possibly none).
    void propose(int maxDraft, std::vector<TokenId>& out) const;
    const std::vector<TokenId>& tokens() const { return tokens_; }

private:
    uint64_t hashAt(size_t end, int n) const;  // n-gram tokens_[end-n, end)

    int minN_, maxN_;
    std::vector<TokenId> tokens_;
    // One map per n (index n - minN): n-gram hash -> latest end position.
    std::vector<std::unordered_map<uint64_t, uint32_t>> last_;
};

}  // namespace hearth
