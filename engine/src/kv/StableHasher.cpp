#include "kv/StableHasher.h"

#include <cstring>

namespace hearth {
namespace {

constexpr uint64_t kMulA = 0x87c37b91114253d5ull;
constexpr uint64_t kMulB = 0x4cf5ad432745937full;
constexpr uint64_t kMulC = 0x9e3779b97f4a7c15ull;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Final avalanche: every input bit affects every output bit (murmur-style finalizer constants).
inline uint64_t avalanche(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

}  // namespace

std::string Hash128::hex() const {
    static const char* digits = "0123456789abcdef";
    std::string s(32, '0');
    for (int i = 0; i < 16; ++i) {
        s[15 - i] = digits[(hi >> (4 * i)) & 15];
        s[31 - i] = digits[(lo >> (4 * i)) & 15];
    }
    return s;
}

StableHasher::StableHasher(uint64_t seed) : a_(seed ^ 0x243f6a8885a308d3ull), b_(rotl(seed, 32) ^ 0x13198a2e03707344ull) {}

void StableHasher::addU64(uint64_t w) {
    // Two lanes with different multipliers and rotations; lane b also absorbs lane a so the lanes
    // do not stay independent (a collision would need both to collide at once).
    a_ ^= w * kMulA;
    a_ = rotl(a_, 31) * kMulB;
    b_ ^= rotl(w, 17) * kMulB;
    b_ = (rotl(b_, 27) + a_) * kMulC + 0x52dce729ull;
    ++words_;
}

void StableHasher::addBytes(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);  // the project targets little-endian hosts (x86-64, arm64)
        addU64(w);
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p + i, size - i);
    addU64(tail);
    addU64(static_cast<uint64_t>(size));
}

Hash128 StableHasher::digest() const {
    const uint64_t a = avalanche(a_ ^ words_);
    const uint64_t b = avalanche(b_ + a);
    return Hash128{avalanche(a + b * kMulC), b};
}

Hash128 stableHash(const void* data, size_t size, uint64_t seed) {
    StableHasher h(seed);
    h.addBytes(data, size);
    return h.digest();
}

}  // namespace hearth
