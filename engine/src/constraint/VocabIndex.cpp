#include "constraint/VocabIndex.h"

#include <mutex>

namespace hearth::constraint {
namespace {

// Code points of `text` when it is plain string content (see the header), else -1.
int32_t plainCharCount(const std::string& text) {
    int32_t chars = 0;
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<uint8_t>(text[i]);
        if (c < 0x20 || c == '"' || c == '\\') return -1;
        size_t len = 1;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c < 0x80) len = 1;
        else if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c == 0xE0) { len = 3; lo = 0xA0; }
        else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) len = 3;
        else if (c == 0xED) { len = 3; hi = 0x9F; }
        else if (c == 0xF0) { len = 4; lo = 0x90; }
        else if (c >= 0xF1 && c <= 0xF3) len = 4;
        else if (c == 0xF4) { len = 4; hi = 0x8F; }
        else return -1;
        if (i + len > text.size()) return -1;
        for (size_t k = 1; k < len; ++k) {
            const auto b = static_cast<uint8_t>(text[i + k]);
            if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return -1;
        }
        i += len;
        ++chars;
    }
    return chars;
}

}  // namespace

VocabIndex::VocabIndex(const Tokenizer& tokenizer) : vocabSize_(tokenizer.vocabSize()) {
    const auto n = static_cast<size_t>(vocabSize_);
    pieces_.resize(n);
    usable_.assign(n, false);
    plainMask_.assign(n, false);
    plainChars_.assign(n, -1);
    endTokens_ = tokenizer.endOfGeneration();
    std::vector<std::pair<std::string, TokenId>> all, nonPlain;
    all.reserve(n);
    for (TokenId id = 0; id < vocabSize_; ++id) {
        std::string piece = tokenizer.tokenPiece(id);
        pieces_[static_cast<size_t>(id)] = piece;
        if (piece.empty() || tokenizer.isEndOfGeneration(id) || tokenizer.findSpecial(piece) == id) continue;
        usable_[static_cast<size_t>(id)] = true;
        const int32_t chars = plainCharCount(piece);
        if (chars >= 0) {
            plainMask_[static_cast<size_t>(id)] = true;
            plainChars_[static_cast<size_t>(id)] = chars;
            plainTokens_.push_back(id);
        } else {
            nonPlain.emplace_back(piece, id);
        }
        all.emplace_back(std::move(piece), id);
    }
    all_ = ByteTrie(std::move(all));
    nonPlain_ = ByteTrie(std::move(nonPlain));
}

std::shared_ptr<const VocabIndex> VocabIndex::forTokenizer(const Tokenizer& tokenizer) {
    // Strong references to the few most recent vocabularies (one per loaded model, in practice):
    // building one for a 150k vocabulary takes a noticeable fraction of a second.
    static constexpr size_t kKeep = 4;
    static std::mutex mutex;
    static std::vector<std::pair<std::pair<uint64_t, int32_t>, std::shared_ptr<const VocabIndex>>> cache;
    const auto key = std::make_pair(tokenizer.fingerprint(), tokenizer.vocabSize());
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = 0; i < cache.size(); ++i) {
        if (cache[i].first != key) continue;
        auto hit = cache[i];
        cache.erase(cache.begin() + static_cast<long>(i));
        cache.push_back(hit);
        return hit.second;
    }
    auto index = std::make_shared<const VocabIndex>(tokenizer);
    cache.emplace_back(key, index);
    if (cache.size() > kKeep) cache.erase(cache.begin());
    return index;
}

}  // namespace hearth::constraint
