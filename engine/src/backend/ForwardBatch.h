#pragma once
// Data-only description of one batched forward step, produced by the scheduler's output and
// consumed by a Backend. One step is a ragged batch: every scheduled sequence contributes a slice
// of consecutive tokens (a prefill chunk, one decode token, or one token plus draft tokens).
//
// Invariants (checked by validate()):
// - slices are non-empty, cover tokens[] exactly, in order, without overlap;
// - a slice's tokens sit at positions startPos .. startPos + numTokens - 1 of its sequence, and its
//   block table covers positions [0, startPos + numTokens): blockCount * kBlockSize >= that;
// - KV for positions [0, startPos) is already in the listed blocks; the step writes KV for the
//   slice's own tokens into them (blocks shared through the prefix cache are never written,
//   because only full, hashed blocks are shared and a slice writes past them);
// - logitRows are strictly increasing indices into tokens[].

#include <cstdint>
#include <string>
#include <vector>

#include "hearth/result.h"
#include "hearth/tokenizer.h"

namespace hearth {

constexpr int32_t kBlockSize = 16;  // tokens per KV block

struct SeqSlice {
    int32_t tokenBegin = 0;   // index into ForwardBatch::tokens
    int32_t numTokens = 0;
    int32_t startPos = 0;     // tokens of this sequence already in the KV cache
    int32_t blockBegin = 0;   // index into ForwardBatch::blockTables
    int32_t blockCount = 0;
};

struct ForwardBatch {
    std::vector<TokenId> tokens;
    std::vector<SeqSlice> seqs;
    std::vector<int32_t> blockTables;  // physical block ids, each sequence's run in order
    std::vector<int32_t> logitRows;    // which tokens' logits to return, ascending

    int32_t numTokens() const { return static_cast<int32_t>(tokens.size()); }
    // Append a sequence's slice; returns its index.
    int32_t addSequence(const std::vector<TokenId>& sliceTokens, int32_t startPos,
                        const std::vector<int32_t>& blockTable, bool allLogits, bool lastLogit);
    Status validate(uint32_t numPhysicalBlocks, uint32_t vocab) const;
};

}  // namespace hearth
