#include "tokenizer/Vocab.h"

#include <cstdio>

namespace hearth {

void Vocab::resize(int32_t n) {
    pieces_.resize(static_cast<size_t>(n));
    types_.resize(static_cast<size_t>(n), TokenType::Unused);
    scores_.resize(static_cast<size_t>(n), 0.0f);
}

void Vocab::set(TokenId id, std::string piece, TokenType type, float score) {
    pieces_[static_cast<size_t>(id)] = std::move(piece);
    types_[static_cast<size_t>(id)] = type;
    scores_[static_cast<size_t>(id)] = score;
}

void Vocab::finalize() {
    index_.clear();
    index_.reserve(pieces_.size());
    for (size_t i = 0; i < pieces_.size(); ++i) {
        if (pieces_[i].empty() && types_[i] == TokenType::Unused) continue;  // a hole
        index_[pieces_[i]] = static_cast<TokenId>(i);
    }
    for (int b = 0; b < 256; ++b) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        byteTokens_[static_cast<size_t>(b)] = find(name);
    }
}

TokenId Vocab::find(std::string_view piece) const {
    auto it = index_.find(piece);
    return it == index_.end() ? -1 : it->second;
}

}  // namespace hearth
