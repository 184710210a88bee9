#pragma once
// What constrained decoding needs to know about a vocabulary, built once per tokenizer and shared
// by every request (forTokenizer() caches it by the tokenizer's fingerprint).
//
// Token classes: special/control tokens and end-of-generation tokens never appear in either trie
// (the constraint allows end-of-generation tokens itself, once the document is complete). A token
// is "plain" when its text is whole UTF-8 characters with no quote, backslash or control character:
// inside a JSON string every plain token is acceptable, so the mask for that state starts from
// plainMask() and only the other tokens (nonPlain()) are walked with the automaton.
//
// Invariants: pieces().size() == vocabSize(); all() holds every usable token, nonPlain() exactly the
// usable tokens that are not plain; plainChars()[id] is the number of code points of a plain token
// and -1 for every other token; plainMask()[id] == (plainChars()[id] >= 0); immutable once built.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "constraint/ByteTrie.h"
#include "hearth/tokenizer.h"

namespace hearth::constraint {

class VocabIndex {
public:
    explicit VocabIndex(const Tokenizer& tokenizer);
    static std::shared_ptr<const VocabIndex> forTokenizer(const Tokenizer& tokenizer);

    int32_t vocabSize() const { return vocabSize_; }
    const std::vector<std::string>& pieces() const { return pieces_; }
    const ByteTrie& all() const { return all_; }
    const ByteTrie& nonPlain() const { return nonPlain_; }
    const std::vector<bool>& plainMask() const { return plainMask_; }
    const std::vector<int32_t>& plainChars() const { return plainChars_; }
    const std::vector<TokenId>& plainTokens() const { return plainTokens_; }
    const std::vector<TokenId>& endTokens() const { return endTokens_; }
    bool usable(TokenId id) const { return id >= 0 && id < vocabSize_ && usable_[static_cast<size_t>(id)]; }

private:
    int32_t vocabSize_ = 0;
    std::vector<std::string> pieces_;
    std::vector<bool> usable_;
    ByteTrie all_, nonPlain_;
    std::vector<bool> plainMask_;
    std::vector<int32_t> plainChars_;
    std::vector<TokenId> plainTokens_;
    std::vector<TokenId> endTokens_;
};

}  // namespace hearth::constraint
