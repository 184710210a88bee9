#include "spec/NGramProposer.h"

#include <algorithm>

namespace hearth {
namespace {
inline uint64_t mix(uint64_t h, uint32_t t) {
    h ^= t + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ull;
}
}  // namespace

NGramProposer::NGramProposer(int minN, int maxN) : minN_(std::max(1, minN)), maxN_(std::max(minN_, maxN)) {
    last_.resize(maxN_ - minN_ + 1);
}

uint64_t NGramProposer::hashAt(size_t end, int n) const {
    uint64_t h = static_cast<uint64_t>(n);
    for (size_t i = end - n; i < end; ++i) h = mix(h, static_cast<uint32_t>(tokens_[i]));
    return h;
}

void NGramProposer::append(std::span<const TokenId> toks) {
    for (TokenId t : toks) {
        // Before adding t, record the n-grams ending at the current end: they now have a follower.
        const size_t end = tokens_.size();
        for (int n = minN_; n <= maxN_; ++n)
            if (end >= static_cast<size_t>(n)) last_[n - minN_][hashAt(end, n)] = static_cast<uint32_t>(end);
        tokens_.push_back(t);
    }
}

void NGramProposer::propose(int maxDraft, std::vector<TokenId>& out) const {
    out.clear();
    const size_t end = tokens_.size();
    if (maxDraft <= 0) return;
    for (int n = std::min<int>(maxN_, static_cast<int>(end)); n >= minN_; --n) {
        const auto& map = last_[n - minN_];
        auto it = map.find(hashAt(end, n));
        if (it == map.end()) continue;
        const size_t e = it->second;  // an earlier n-gram ends at e and tokens_[e] followed it
        if (!std::equal(tokens_.begin() + (e - n), tokens_.begin() + e, tokens_.begin() + (end - n))) continue;
        for (size_t i = e; i < end && out.size() < static_cast<size_t>(maxDraft); ++i) out.push_back(tokens_[i]);
        return;
    }
}

}  // namespace hearth
