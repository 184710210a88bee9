#pragma once
// The part of a tokenizer that turns one pre-tokenized piece of normalized text into ids
// (BPE, WordPiece). Implementations are immutable after construction and thread-safe.

#include <cstdint>
#include <string_view>
#include <vector>

#include "hearth/tokenizer.h"

namespace hearth {

class TokenizerModel {
public:
    virtual ~TokenizerModel() = default;
    // Appends the ids of one piece (never empty) to out.
    virtual void encodePiece(std::string_view piece, std::vector<TokenId>& out) const = 0;
    // Folds the model's own tables (merges, prefixes) into a vocabulary fingerprint.
    virtual uint64_t fingerprint(uint64_t seed) const = 0;
};

}  // namespace hearth
