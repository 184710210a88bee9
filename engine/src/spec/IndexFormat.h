#pragma once
// Shared pieces of the domain index file format (see DomainIndex.h for the layout).
#include <cstdint>
#include <cstring>

namespace hearth::index_format {

constexpr char kMagic[8] = {'H', 'R', 'T', 'H', 'I', 'D', 'X', '1'};
constexpr uint64_t kHeaderBytes = 8 + 4 + 4 + 8 + 8 + 8 + 8;

struct Header {
    uint32_t version;
    uint32_t sortDepth;
    uint64_t fingerprint;
    uint64_t nTokens;
    uint64_t nSuffixes;
    uint64_t nFiles;
};

inline uint64_t fnv1a(const uint8_t* p, uint64_t n, uint64_t h = 0xCBF29CE484222325ull) {
    for (uint64_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001B3ull;
    }
    return h;
}

// Compare the token runs starting at a and b over at most depth tokens; -1 (separator) ends a run
// and sorts first. Returns <0, 0, >0.
inline int compareRuns(const int32_t* toks, uint64_t n, uint64_t a, uint64_t b, uint32_t depth) {
    for (uint32_t i = 0; i < depth; ++i) {
        const int32_t x = a + i < n ? toks[a + i] : -1;
        const int32_t y = b + i < n ? toks[b + i] : -1;
        if (x != y) return x < y ? -1 : 1;
        if (x < 0) return 0;
    }
    return 0;
}

}  // namespace hearth::index_format
