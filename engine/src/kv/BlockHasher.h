#pragma once
// Content hashes of full KV blocks for prefix caching: h_i = H(h_{i-1}, tokens of block i, extra).
//
// Invariants:
// - a block's hash identifies the whole token prefix up to and including that block (through the
//   parent chain), so equal hashes mean equal KV contents for the same model and cache salt;
// - extra = H(model fingerprint, cache salt) is mixed into every block, so requests with different
//   salts (or another model's cache files) never share blocks;
// - only full blocks (kBlockSize tokens) are hashed; a partial tail block never is.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "backend/ForwardBatch.h"
#include "kv/Hash128.h"

namespace hearth {

class BlockHasher {
public:
    // The per-request extra key.
    static Hash128 extraKey(const Hash128& modelFingerprint, std::string_view cacheSalt);
    static Hash128 hashBlock(const Hash128& parent, std::span<const TokenId> blockTokens, const Hash128& extra);
    // Appends the hashes of the full blocks of `tokens` that `hashes` does not cover yet.
    static void extend(std::vector<Hash128>& hashes, std::span<const TokenId> tokens, const Hash128& extra);
};

}  // namespace hearth
