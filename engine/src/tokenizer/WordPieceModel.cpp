#include "tokenizer/WordPieceModel.h"

#include "tokenizer/Utf8.h"

namespace hearth {

void WordPieceModel::encodePiece(std::string_view word, std::vector<TokenId>& out) const {
    // Character boundaries, so candidate pieces never end inside a character.
    std::vector<size_t> bounds{0};
    for (size_t i = 0; i < word.size();) {
        uint32_t cp = 0;
        const size_t n = utf8::decode(word, i, cp);
        i += n ? n : 1;
        bounds.push_back(i);
    }
    if (bounds.size() - 1 > opts_.maxChars) {
        out.push_back(opts_.unk);
        return;
    }
    const size_t mark = out.size();
    std::string key;
    size_t startIdx = 0;
    while (startIdx + 1 < bounds.size()) {
        TokenId found = -1;
        size_t endIdx = bounds.size() - 1;
        const std::string& prefix = startIdx == 0 ? opts_.wordStartPrefix : opts_.continuationPrefix;
        for (; endIdx > startIdx; --endIdx) {
            key.assign(prefix);
            key.append(word.substr(bounds[startIdx], bounds[endIdx] - bounds[startIdx]));
            const TokenId id = vocab_->find(key);
            if (id >= 0 && (vocab_->type(id) == TokenType::Normal || vocab_->type(id) == TokenType::Undefined)) {
                found = id;
                break;
            }
        }
        if (found < 0) {
            out.resize(mark);
            out.push_back(opts_.unk);
            return;
        }
        out.push_back(found);
        startIdx = endIdx;
    }
}

uint64_t WordPieceModel::fingerprint(uint64_t h) const {
    for (char c : "wordpiece:" + opts_.wordStartPrefix + "|" + opts_.continuationPrefix) {
        h ^= static_cast<uint8_t>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

}  // namespace hearth
