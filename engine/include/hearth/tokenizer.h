#pragma once
// Text <-> token ids, from a GGUF file's tokenizer.* metadata or from Hugging Face tokenizer.json.
//
// A Tokenizer is immutable after creation and safe to use from several threads at once.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hearth/result.h"

namespace hearth {

using TokenId = int32_t;

struct TokenizeOptions {
    bool addSpecial = true;     // BOS/EOS as the tokenizer's metadata asks (add_bos/add_eos)
    bool parseSpecial = false;  // text like "<|im_end|>" becomes the special token, not its characters
                                // (user-defined / non-special added tokens are always matched)
};

class Tokenizer {
public:
    // From a GGUF file (model or vocab-only).
    static Result<std::shared_ptr<const Tokenizer>> fromGguf(const std::string& path);
    // From Hugging Face files; tokenizerConfigJson may be empty.
    static Result<std::shared_ptr<const Tokenizer>> fromHuggingFace(const std::string& tokenizerJsonPath,
                                                                    const std::string& tokenizerConfigJsonPath);
    virtual ~Tokenizer() = default;

    // Invalid UTF-8 in text is replaced by U+FFFD first; never fails.
    virtual std::vector<TokenId> encode(std::string_view text, TokenizeOptions opts = {}) const = 0;
    // Concatenated pieces; special/control tokens render as their text unless skipSpecial.
    // Nothing is stripped: a SentencePiece word-start token gives its leading space (as llama.cpp
    // prints completions). Ids outside the vocab are ignored.
    virtual std::string decode(std::span<const TokenId> ids, bool skipSpecial = false) const = 0;
    // The bytes one token contributes (may be a partial UTF-8 sequence for byte tokens).
    virtual std::string tokenPiece(TokenId id) const = 0;

    virtual int32_t vocabSize() const = 0;
    virtual TokenId bos() const = 0;  // -1 when none
    virtual TokenId eos() const = 0;  // -1 when none
    virtual bool addsBos() const = 0;
    virtual bool addsEos() const = 0;
    // End-of-generation tokens: eos, eot, and template end-of-turn tokens (<|im_end|>, <|eot_id|>, ...).
    virtual const std::vector<TokenId>& endOfGeneration() const = 0;
    bool isEndOfGeneration(TokenId id) const;
    // Special/control token with this exact text, or -1.
    virtual TokenId findSpecial(std::string_view text) const = 0;
    virtual std::string bosText() const = 0;
    virtual std::string eosText() const = 0;
    // A stable hash of the vocabulary (ids, pieces, merges); a speculative index records it.
    virtual uint64_t fingerprint() const = 0;
};

// Turns a stream of token ids into text without ever emitting a broken UTF-8 sequence: bytes of
// an incomplete character are held until it completes (or flushed as U+FFFD at finish()).
class IncrementalDecoder {
public:
    explicit IncrementalDecoder(std::shared_ptr<const Tokenizer> tok) : tok_(std::move(tok)) {}
    std::string push(TokenId id);
    std::string finish();

private:
    std::shared_ptr<const Tokenizer> tok_;
    std::string pending_;
    bool first_ = true;
};

}  // namespace hearth
