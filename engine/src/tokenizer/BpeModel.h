#pragma once
// Byte-pair encoding of one piece: start from single characters (or single bytes, for the
// byte-level alphabet), repeatedly merge the adjacent pair with the best priority, leftmost
// first on ties. Two ways to rank a pair:
//   Merges      - the pair's position in a merge list (GGUF gpt2 merges, tokenizer.json merges);
//   PieceScores - the score of the concatenated piece, higher first (SentencePiece BPE as GGUF
//                 `llama` vocabs store it).
// Symbols left outside the vocab become byte tokens (<0xXX>) with byte fallback, or unk.
//
// The merge loop keeps symbols in a doubly linked list over the piece and candidate pairs in a
// binary heap, so a piece of n characters costs O(n log n) whatever its length.
//
// SentencePiece-style vocabs see a whole text section as one piece. When no merge result can
// hold a non-space character followed by the space marker U+2581 (checked once, by finalize()),
// no merge can cross the start of a word, so the piece is cut before each word-start marker and
// the parts are merged separately: the same ids, with short heaps instead of one huge one.
//
// Invariants: merges_ maps (left id, right id) to (rank, merged id) with the first rank kept for
// a pair listed twice; byteIds_[b] is the id of the alphabet character for byte b (or -1);
// splitAtWordStarts_ is true only when the property above was verified.

#include <array>
#include <memory>
#include <unordered_map>

#include "tokenizer/TokenizerModel.h"
#include "tokenizer/Vocab.h"

namespace hearth {

class BpeModel final : public TokenizerModel {
public:
    enum class Ranking { Merges, PieceScores };
    struct Options {
        Ranking ranking = Ranking::Merges;
        bool byteLevel = false;     // pieces are raw bytes; vocab pieces use the byte-level alphabet
        bool byteFallback = false;  // unknown symbols -> <0xXX> tokens
        bool ignoreMerges = false;  // a piece that is a whole vocab entry is taken as is
        TokenId unk = -1;
        bool fuseUnk = false;       // consecutive unknowns become one unk
    };

    BpeModel(std::shared_ptr<const Vocab> vocab, Options opts);

    // Ranks follow the order of calls. Returns false when left or right is not a token.
    bool addMerge(TokenId left, TokenId right, TokenId merged);
    size_t mergeCount() const { return mergeList_.size(); }
    // Call once after the last addMerge(): decides whether pieces may be cut at word starts.
    void finalize();

    void encodePiece(std::string_view piece, std::vector<TokenId>& out) const override;
    uint64_t fingerprint(uint64_t seed) const override;

private:
    struct Symbol {
        TokenId id;      // -1 when the symbol's text is not a token
        uint32_t start;  // byte offset in the piece
        uint32_t len;    // 0 once merged into its left neighbour
        int32_t prev, next;
    };
    bool lookupPair(std::string_view piece, const Symbol& l, const Symbol& r, double& priority, TokenId& merged) const;
    void emitUnknown(std::string_view text, std::vector<TokenId>& out) const;
    bool mergeable(TokenId id) const;
    void encodeSegment(std::string_view piece, std::vector<TokenId>& out) const;

    std::shared_ptr<const Vocab> vocab_;
    Options opts_;
    std::unordered_map<uint64_t, uint64_t> merges_;
    std::vector<std::array<TokenId, 2>> mergeList_;
    std::array<TokenId, 256> byteIds_{};
    bool splitAtWordStarts_ = false;
};

}  // namespace hearth
