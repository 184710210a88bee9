#pragma once
// The token table: id -> piece (as stored by the format), type and score, and piece -> id.
//
// Invariants after finalize(): every id in [0, size()) has a piece (possibly empty for holes in
// a Hugging Face vocab), a type and a score; find() returns the id of a piece (when a piece is
// listed twice, the later id wins, as when added tokens override the model vocab); byteToken(b)
// is the id of the piece "<0xXX>" (upper-case hex) or -1.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hearth/tokenizer.h"

namespace hearth {

// GGUF's tokenizer.ggml.token_type values.
enum class TokenType : uint8_t { Undefined = 0, Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

class Vocab {
public:
    void resize(int32_t n);
    void set(TokenId id, std::string piece, TokenType type, float score = 0.0f);
    void finalize();

    int32_t size() const { return static_cast<int32_t>(pieces_.size()); }
    bool contains(TokenId id) const { return id >= 0 && id < size(); }
    const std::string& piece(TokenId id) const { return pieces_[static_cast<size_t>(id)]; }
    TokenType type(TokenId id) const { return types_[static_cast<size_t>(id)]; }
    float score(TokenId id) const { return scores_[static_cast<size_t>(id)]; }
    TokenId find(std::string_view piece) const;
    TokenId byteToken(uint8_t b) const { return byteTokens_[b]; }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> pieces_;
    std::vector<TokenType> types_;
    std::vector<float> scores_;
    std::unordered_map<std::string, TokenId, Hash, std::equal_to<>> index_;
    std::array<TokenId, 256> byteTokens_{};
};

}  // namespace hearth
