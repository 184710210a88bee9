#pragma once
// The one concrete Tokenizer: runs the pipeline described in TokenizerParts.h. Immutable after
// create(), so encode/decode may run from many threads at once.
//
// Invariants: decoded_[id] holds the bytes token id contributes to text (precomputed once);
// eog_ is sorted and unique; fingerprint_ is computed from the vocab and model tables only.

#include "tokenizer/TokenizerParts.h"

namespace hearth {

class TokenizerImpl final : public Tokenizer {
public:
    static Result<std::shared_ptr<const Tokenizer>> create(TokenizerParts parts);

    std::vector<TokenId> encode(std::string_view text, TokenizeOptions opts = {}) const override;
    std::string decode(std::span<const TokenId> ids, bool skipSpecial = false) const override;
    std::string tokenPiece(TokenId id) const override;

    int32_t vocabSize() const override { return parts_.vocab->size(); }
    TokenId bos() const override { return parts_.bos; }
    TokenId eos() const override { return parts_.eos; }
    bool addsBos() const override { return parts_.addBos && parts_.bos >= 0; }
    bool addsEos() const override { return parts_.addEos && parts_.eos >= 0; }
    const std::vector<TokenId>& endOfGeneration() const override { return eog_; }
    TokenId findSpecial(std::string_view text) const override;
    std::string bosText() const override;
    std::string eosText() const override;
    uint64_t fingerprint() const override { return fingerprint_; }

private:
    explicit TokenizerImpl(TokenizerParts parts) : parts_(std::move(parts)) {}
    std::string decodePiece(TokenId id) const;
    bool isSpecial(TokenId id) const;

    TokenizerParts parts_;
    std::vector<std::string> decoded_;
    std::vector<TokenId> eog_;
    uint64_t fingerprint_ = 0;
};

}  // namespace hearth
