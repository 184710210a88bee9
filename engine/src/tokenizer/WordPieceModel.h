#pragma once
// WordPiece (BERT): each pre-tokenized word is split greedily into the longest vocab pieces,
// left to right; a word with any part missing from the vocab, or longer than maxChars, becomes
// the unknown token as a whole.
// Pieces are looked up with a prefix that depends on their position: Hugging Face vocabs mark
// continuations ("##ing"), GGUF vocabs mark word starts ("▁play") and store continuations bare.
//
// Invariant: unk is a token of the vocab (WordPiece cannot encode without one).

#include <memory>
#include <string>

#include "tokenizer/TokenizerModel.h"
#include "tokenizer/Vocab.h"

namespace hearth {

class WordPieceModel final : public TokenizerModel {
public:
    struct Options {
        std::string wordStartPrefix;     // "▁" in GGUF, "" in tokenizer.json
        std::string continuationPrefix;  // "" in GGUF, "##" in tokenizer.json
        TokenId unk = -1;
        size_t maxChars = 100;
    };
    WordPieceModel(std::shared_ptr<const Vocab> vocab, Options opts) : vocab_(std::move(vocab)), opts_(std::move(opts)) {}

    void encodePiece(std::string_view word, std::vector<TokenId>& out) const override;
    uint64_t fingerprint(uint64_t seed) const override;

private:
    std::shared_ptr<const Vocab> vocab_;
    Options opts_;
};

}  // namespace hearth
