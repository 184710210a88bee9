#pragma once
// A streaming, seedable, non-cryptographic 128-bit hash with a fixed definition (little-endian
// 64-bit words, two multiply-rotate lanes, a strong final avalanche). Block hashes and disk-cache
// checksums must not change between runs, so std::hash (which may be randomised or differ between
// standard libraries) is not usable for them.
//
// Invariant: digest() depends only on the seed and the exact sequence of bytes/words added, with
// word boundaries significant (addU64(x) differs from addBytes of x's bytes only by definition,
// never by chance of buffering).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kv/Hash128.h"

namespace hearth {

class StableHasher {
public:
    explicit StableHasher(uint64_t seed = 0);

    void addU64(uint64_t word);
    // Bytes are packed into 8-byte words; a trailing partial word is zero-padded and the byte
    // count is mixed in, so "ab" + "c" and "a" + "bc" differ only if added as separate calls.
    void addBytes(const void* data, size_t size);
    void addString(std::string_view s) { addBytes(s.data(), s.size()); }

    Hash128 digest() const;

private:
    uint64_t a_, b_;
    uint64_t words_ = 0;
};

// Convenience: the hash of one byte range.
Hash128 stableHash(const void* data, size_t size, uint64_t seed = 0);

}  // namespace hearth
