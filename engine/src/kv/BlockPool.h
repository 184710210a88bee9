#pragma once
// The device's KV blocks: ref counts, the LRU free queue and the hash -> block map of the prefix
// cache (after vLLM v1's block pool). The KV bytes themselves live in the backend; this class
// only decides which physical block holds what.
//
// Invariants:
// - every block is either referenced (refCount > 0) or in the free queue, never both;
// - a registered hash maps to exactly one block, and that block carries the hash; a free block
//   keeps its hash (so a later request can revive it with touch()) until allocate() reuses it,
//   at which point the hash is unregistered and reported as evicted;
// - numFree() blocks can always be allocated: allocate(n) with n <= numFree() cannot fail, so
//   callers check first and change second.

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kv/FreeBlockQueue.h"
#include "kv/Hash128.h"
#include "kv/KvBlock.h"

namespace hearth {

class BlockPool {
public:
    explicit BlockPool(uint32_t numBlocks);
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;

    uint32_t numBlocks() const { return static_cast<uint32_t>(blocks_.size()); }
    uint32_t numFree() const { return free_.size(); }
    uint32_t numUsed() const { return numBlocks() - numFree(); }
    uint32_t numCached() const { return static_cast<uint32_t>(byHash_.size()); }
    const KvBlock& block(int32_t id) const { return blocks_[id]; }

    std::optional<int32_t> findCached(const Hash128& hash) const;

    // Takes n blocks from the head of the free queue (ref 1 each). Blocks that still carried a
    // hash lose it; their (block, hash) pairs are appended to evicted so the caller can save the
    // contents to a lower tier before anything writes the blocks. Precondition: n <= numFree().
    std::vector<int32_t> allocate(uint32_t n, std::vector<std::pair<int32_t, Hash128>>* evicted);
    // A sequence starts sharing a block (a prefix hit): ref + 1, leaving the free queue at 0.
    void touch(int32_t id);
    // Drops one reference from each block, in the given order; blocks reaching 0 join the tail of
    // the free queue in that order (pass a sequence's blocks tail-first so its last blocks are
    // evicted before the shared prefix).
    void release(std::span<const int32_t> ids);
    // Drops one reference from each unhashed block (rejected speculative KV); blocks reaching 0 go
    // to the head of the free queue, so they are reused before blocks that still cache a prefix.
    void releaseUnused(std::span<const int32_t> ids);
    // Marks a referenced block as holding the full block `hash`. Returns false (and changes
    // nothing) when the hash is already registered to another block or this block has a hash.
    bool registerHash(int32_t id, const Hash128& hash);

    // Every registered (block, hash), for persisting the cache at shutdown.
    std::vector<std::pair<int32_t, Hash128>> cachedBlocks() const;

private:
    std::vector<KvBlock> blocks_;
    FreeBlockQueue free_;
    std::unordered_map<Hash128, int32_t, Hash128Hasher> byHash_;
};

}  // namespace hearth
