#pragma once
// A 128-bit hash value: block hashes, model fingerprints and cache-file checksums.
//
// Invariant: values are produced only by StableHasher, so they are identical across runs, builds
// and machines (the disk tier depends on that). {0, 0} is the root "no parent" value.

#include <cstddef>
#include <cstdint>
#include <string>

namespace hearth {

struct Hash128 {
    uint64_t hi = 0, lo = 0;

    bool operator==(const Hash128&) const = default;
    bool isZero() const { return hi == 0 && lo == 0; }
    std::string hex() const;  // 32 lowercase hex digits, hi first
};

struct Hash128Hasher {
    size_t operator()(const Hash128& h) const { return static_cast<size_t>(h.lo ^ (h.hi * 0x9e3779b97f4a7c15ull)); }
};

}  // namespace hearth
