#pragma once
// Everything a loader (GGUF metadata, tokenizer.json) decides about a tokenizer, handed to
// TokenizerImpl, which owns the encode/decode pipeline:
//   raw text -> added/special token split -> per section: normalizer -> pre-tokenizer -> model.
//
// Invariants expected by TokenizerImpl::create: vocab and model are set; bos/eos are -1 or ids
// inside the vocab; every id in endOfGeneration is inside the vocab.

#include <memory>
#include <string>
#include <vector>

#include "tokenizer/AddedTokenSplitter.h"
#include "tokenizer/Normalizer.h"
#include "tokenizer/PreTokenizer.h"
#include "tokenizer/TokenizerModel.h"
#include "tokenizer/Vocab.h"

namespace hearth {

// How a normal token's piece becomes bytes.
enum class PieceDecoding {
    ByteLevel,      // piece characters stand for bytes (GPT-2 alphabet)
    SentencePiece,  // U+2581 stands for a space; <0xXX> byte tokens are bytes
    WordPiece,      // word starts get a space (marked by wordStartPrefix, or unmarked when
                    // continuations carry continuingPrefix); continuations attach directly
};

struct TokenizerParts {
    std::string kind;  // "llama", "gpt2", "bert", "hf-bpe", ... (for messages)
    std::shared_ptr<Vocab> vocab;
    std::shared_ptr<const TokenizerModel> model;
    Normalizer normalizer;
    PreTokenizer preTokenizer;
    AddedTokenSplitter added;
    PieceDecoding decoding = PieceDecoding::ByteLevel;
    std::string continuingPrefix;  // WordPiece, tokenizer.json style: "##"
    std::string wordStartPrefix;   // WordPiece, GGUF style: U+2581
    TokenId bos = -1, eos = -1;
    bool addBos = false, addEos = false;
    std::vector<TokenId> endOfGeneration;  // eos, eot, ... (more are found by text at create())
};

}  // namespace hearth
