#include "spec/DomainIndex.h"

#include <algorithm>
#include <map>

#include "spec/IndexFormat.h"

namespace hearth {

using namespace index_format;

Result<std::shared_ptr<DomainIndex>> DomainIndex::open(const std::string& path, uint64_t expectedFingerprint) {
    auto m = MappedFile::open(path);
    if (!m) return m.error();
    const uint8_t* p = (*m)->data();
    const uint64_t size = (*m)->size();
    if (size < kHeaderBytes + 8 || std::memcmp(p, kMagic, 8) != 0)
        return makeError(ErrorCode::BadMagic, path + ": not a Hearth domain index");
    Header h;
    std::memcpy(&h.version, p + 8, 4);
    std::memcpy(&h.sortDepth, p + 12, 4);
    std::memcpy(&h.fingerprint, p + 16, 8);
    std::memcpy(&h.nTokens, p + 24, 8);
    std::memcpy(&h.nSuffixes, p + 32, 8);
    std::memcpy(&h.nFiles, p + 40, 8);
    if (h.version != kVersion)
        return makeError(ErrorCode::UnsupportedVersion, path + ": index version " + std::to_string(h.version) +
                                                            " (this build reads version " + std::to_string(kVersion) + ")");
    if (h.fingerprint != expectedFingerprint)
        return makeError(ErrorCode::InvalidArgument,
                         path + ": the index was built with a different tokenizer than this model's; rebuild it");
    if (h.nTokens > (size >> 2) || h.nSuffixes > (size >> 2) || h.nSuffixes > h.nTokens || h.sortDepth == 0 ||
        h.sortDepth > 64 || kHeaderBytes + 4 * h.nTokens + 4 * h.nSuffixes + 8 != size)
        return makeError(ErrorCode::Corrupt, path + ": index sizes do not match the file");
    uint64_t stored;
    std::memcpy(&stored, p + size - 8, 8);
    if (fnv1a(p, size - 8) != stored) return makeError(ErrorCode::Corrupt, path + ": index checksum mismatch");
    std::shared_ptr<DomainIndex> ix(new DomainIndex());
    ix->map_ = *m;
    ix->tokens_ = reinterpret_cast<const int32_t*>(p + kHeaderBytes);
    ix->suffixes_ = reinterpret_cast<const uint32_t*>(p + kHeaderBytes + 4 * h.nTokens);
    ix->nTokens_ = h.nTokens;
    ix->nSuffixes_ = h.nSuffixes;
    ix->nFiles_ = h.nFiles;
    ix->sortDepth_ = h.sortDepth;
    for (uint64_t i = 0; i < ix->nSuffixes_; ++i)
        if (ix->suffixes_[i] >= ix->nTokens_ || ix->tokens_[ix->suffixes_[i]] < 0)
            return makeError(ErrorCode::Corrupt, path + ": index suffix " + std::to_string(i) + " is out of range");
    return ix;
}

std::pair<uint64_t, uint64_t> DomainIndex::range(const TokenId* q, int n) const {
    // Compare suffix s against the query over n tokens.
    auto cmp = [&](uint64_t s) {
        for (int i = 0; i < n; ++i) {
            const int32_t x = s + i < nTokens_ ? tokens_[s + i] : -1;
            if (x != q[i]) return x < q[i] ? -1 : 1;
        }
        return 0;
    };
    uint64_t lo = 0, hi = nSuffixes_;
    while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (cmp(suffixes_[mid]) < 0) lo = mid + 1; else hi = mid;
    }
    uint64_t a = lo;
    hi = nSuffixes_;
    while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (cmp(suffixes_[mid]) <= 0) lo = mid + 1; else hi = mid;
    }
    return {a, lo};
}

void DomainIndex::propose(std::span<const TokenId> history, int minN, int maxN, int maxDraft,
                          std::vector<TokenId>& out) const {
    out.clear();
    if (maxDraft <= 0 || nSuffixes_ == 0) return;
    maxN = std::min<int>({maxN, static_cast<int>(sortDepth_) - 1, static_cast<int>(history.size())});
    for (int n = maxN; n >= std::max(1, minN); --n) {
        const TokenId* q = history.data() + history.size() - n;
        auto [lo, hi] = range(q, n);
        if (lo == hi) continue;
        // Vote on the next token over a bounded sample of the matches, then follow one of them.
        std::map<int32_t, std::pair<int, uint64_t>> votes;
        for (uint64_t i = lo; i < hi && i < lo + 64; ++i) {
            const uint64_t s = suffixes_[i];
            if (s + n >= nTokens_ || tokens_[s + n] < 0) continue;
            auto& v = votes[tokens_[s + n]];
            if (v.first++ == 0) v.second = s;
        }
        if (votes.empty()) continue;
        auto best = std::max_element(votes.begin(), votes.end(),
                                     [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
        for (uint64_t i = best->second.second + n; i < nTokens_ && tokens_[i] >= 0 && out.size() < static_cast<size_t>(maxDraft); ++i)
            out.push_back(tokens_[i]);
        return;
    }
}

}  // namespace hearth
