#pragma once
// A domain n-gram index: the tokens of a folder of files (a code repository, documentation) and a
// suffix array over them, memory-mapped, so a sequence whose own context has no match can still draft
// from text the user works with.
//
// File format (little-endian), version 1:
//   char magic[8] = "HRTHIDX1"; u32 version; u32 sortDepth; u64 tokenizerFingerprint;
//   u64 nTokens; u64 nSuffixes; u64 nFiles; i32 tokens[nTokens] (files separated by -1);
//   u32 suffixes[nSuffixes]; u64 checksum (FNV-1a 64 of every byte before it).
// Invariants of an opened index: the sizes add up to the file size exactly, the checksum matches,
// the tokenizer fingerprint equals the one the caller expects, every suffix position is < nTokens and
// points at a token (not a separator), and suffixes are ordered by their first sortDepth tokens
// (a separator sorts before every token and ends the comparison).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/MappedFile.h"
#include "hearth/result.h"
#include "hearth/tokenizer.h"

namespace hearth {

class DomainIndex {
public:
    static Result<std::shared_ptr<DomainIndex>> open(const std::string& path, uint64_t expectedFingerprint);

    // Longest suffix of `history` (maxN..minN tokens) found in the index: append up to maxDraft
    // following tokens to `out` (cleared first).
    void propose(std::span<const TokenId> history, int minN, int maxN, int maxDraft, std::vector<TokenId>& out) const;

    uint64_t tokenCount() const { return nTokens_; }
    uint64_t fileCount() const { return nFiles_; }
    uint32_t sortDepth() const { return sortDepth_; }

    static constexpr uint32_t kVersion = 1;

private:
    DomainIndex() = default;
    // [lo, hi) of suffixes whose first n tokens equal q.
    std::pair<uint64_t, uint64_t> range(const TokenId* q, int n) const;

    std::shared_ptr<MappedFile> map_;
    const int32_t* tokens_ = nullptr;
    const uint32_t* suffixes_ = nullptr;
    uint64_t nTokens_ = 0, nSuffixes_ = 0, nFiles_ = 0;
    uint32_t sortDepth_ = 0;
};

}  // namespace hearth
