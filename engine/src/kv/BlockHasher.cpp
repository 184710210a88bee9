#include "kv/BlockHasher.h"

#include "kv/StableHasher.h"

namespace hearth {
namespace {
constexpr uint64_t kExtraSeed = 0x6b76657874726131ull;  // distinct seeds keep the two uses apart
constexpr uint64_t kBlockSeed = 0x6b76626c6f636b31ull;
}  // namespace

Hash128 BlockHasher::extraKey(const Hash128& modelFingerprint, std::string_view cacheSalt) {
    StableHasher h(kExtraSeed);
    h.addU64(modelFingerprint.hi);
    h.addU64(modelFingerprint.lo);
    h.addString(cacheSalt);
    return h.digest();
}

Hash128 BlockHasher::hashBlock(const Hash128& parent, std::span<const TokenId> blockTokens, const Hash128& extra) {
    StableHasher h(kBlockSeed);
    h.addU64(parent.hi);
    h.addU64(parent.lo);
    h.addU64(extra.hi);
    h.addU64(extra.lo);
    h.addU64(blockTokens.size());
    for (size_t i = 0; i < blockTokens.size(); i += 2) {
        const uint64_t lo = static_cast<uint32_t>(blockTokens[i]);
        const uint64_t hi = i + 1 < blockTokens.size() ? static_cast<uint32_t>(blockTokens[i + 1]) : 0xffffffffull;
        h.addU64(lo | (hi << 32));
    }
    return h.digest();
}

void BlockHasher::extend(std::vector<Hash128>& hashes, std::span<const TokenId> tokens, const Hash128& extra) {
    while ((hashes.size() + 1) * kBlockSize <= tokens.size()) {
        const size_t b = hashes.size();
        const Hash128 parent = b ? hashes[b - 1] : Hash128{};
        hashes.push_back(hashBlock(parent, tokens.subspan(b * kBlockSize, kBlockSize), extra));
    }
}

}  // namespace hearth
