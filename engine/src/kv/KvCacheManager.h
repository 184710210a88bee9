#pragma once
// Per-sequence block tables over the device BlockPool, with the RAM and disk tiers beneath it
// (after vLLM v1's KV cache manager). The scheduler asks it three things: what prefix of a request
// is cached (lookup), whether and how a step's new tokens get slots (allocateSlots), and to give
// blocks back (freeSequence, swapOutTail).
//
// Invariants:
// - a sequence's block table covers its computed tokens plus the tokens scheduled this step, and
//   only grows while it runs, except truncate() after rejected draft tokens, which drops blocks past
//   the computed tokens (never a hashed one); its first numHashed blocks are full and carry their
//   hashes, and only blocks whose every position holds accepted KV are ever hashed;
// - check first, change second: allocateSlots() either succeeds or returns nullopt with nothing
//   changed (pool, tiers, tables);
// - tier movement is synchronous on the calling (engine) thread: a device block evicted by an
//   allocation is copied to RAM (or disk) before allocateSlots() returns, i.e. before any step can
//   overwrite it; a RAM/disk hit is copied into its fresh device block the same way (in groups,
//   one backend call per group);
// - shared blocks are never written: only full hashed blocks are shared, and a sequence only
//   writes at positions past its cached prefix.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "backend/Backend.h"
#include "kv/BlockPool.h"
#include "kv/BlockTransfer.h"
#include "kv/DiskBlockCache.h"
#include "kv/HostBlockCache.h"
#include "kv/PrefixLookup.h"

namespace hearth {

struct KvCacheCounters {
    uint64_t evictedToRam = 0, evictedToDisk = 0, ramToDisk = 0;
    uint64_t copiedInFromRam = 0, copiedInFromDisk = 0, diskReadFailures = 0, ioErrors = 0;
    uint64_t swappedOut = 0;
};

class KvCacheManager {
public:
    // ram and disk may be null (tier off). The backend's pool must already hold numBlocks blocks
    // of blockBytes each (the tiers' block size).
    KvCacheManager(Backend& backend, uint32_t numBlocks, uint64_t blockBytes, std::unique_ptr<HostBlockCache> ram,
                   std::unique_ptr<DiskBlockCache> disk);
    ~KvCacheManager();
    KvCacheManager(const KvCacheManager&) = delete;
    KvCacheManager& operator=(const KvCacheManager&) = delete;

    uint32_t numBlocks() const { return pool_.numBlocks(); }
    uint32_t numFreeBlocks() const { return pool_.numFree(); }
    const BlockPool& pool() const { return pool_; }
    const HostBlockCache* ram() const { return ram_.get(); }
    const DiskBlockCache* disk() const { return disk_.get(); }
    const KvCacheCounters& counters() const { return counters_; }

    // The longest cached run of leading full blocks among `hashes` (device, then RAM, then disk
    // for each block), limited to maxBlocks; then the swapped tail if it directly follows.
    PrefixLookup lookup(std::span<const Hash128> hashes, int32_t maxBlocks, int32_t tailSlot = -1,
                        int32_t tailBlockIndex = -1, int32_t tailTokens = 0) const;

    // Gives sequence `id` slots for numNewTokens tokens after numComputed. With a hit (only for a
    // sequence that holds no blocks yet), the hit's blocks come first and numComputed must be the
    // hit's numTokens(). Returns the number of computed tokens after the call: numComputed, or
    // less when a disk block failed its checksum (the blocks from there on are fresh and get
    // recomputed; the table still covers numComputed + numNewTokens). nullopt: not enough free
    // blocks, nothing changed.
    std::optional<int32_t> allocateSlots(uint64_t id, int32_t numComputed, int32_t numNewTokens,
                                         const PrefixLookup* hit = nullptr);
    // Blocks needed beyond the sequence's table and the hit for numComputed + numNewTokens tokens
    // versus what can be had; the check half of allocateSlots.
    bool canAllocate(uint64_t id, int32_t numComputed, int32_t numNewTokens, const PrefixLookup* hit = nullptr) const;

    // Registers the hashes of the sequence's full computed blocks not registered yet.
    void cacheComputedBlocks(uint64_t id, std::span<const Hash128> hashes, int32_t numComputed);
    // Copies the partial block holding tokens [numComputed - numComputed % kBlockSize, numComputed)
    // to a private RAM slot; nullopt when there is no partial block, no RAM tier or no room.
    std::optional<int32_t> swapOutTail(uint64_t id, int32_t numComputed);
    void releaseSwapSlot(int32_t slot);
    // Drops the sequence's references (tail first, so its last blocks are evicted first).
    void freeSequence(uint64_t id);
    // Speculative rollback: keeps the blocks holding positions [0, numTokens) and gives the rest
    // back (they only held rejected draft KV, so they are reused first). numTokens must not be
    // below the hashed blocks' tokens.
    void truncate(uint64_t id, int32_t numTokens);

    const std::vector<int32_t>& blockTable(uint64_t id) const;
    bool holdsBlocks(uint64_t id) const { return tables_.count(id) != 0; }

    // Writes every cached block (device and RAM) to the disk tier; for engine shutdown.
    void persistToDisk();

private:
    struct Table {
        std::vector<int32_t> blocks;
        int32_t numHashed = 0;
    };
    int32_t blocksNeeded(const Table* t, int32_t numComputed, int32_t numNewTokens, const PrefixLookup* hit,
                         int32_t* reviveFromFree) const;
    std::vector<int32_t> takeBlocks(uint32_t n);  // allocate + save evicted contents below
    void spillFromRam(const Hash128& h, const uint8_t* data);
    void writeToDisk(const std::vector<std::pair<int32_t, Hash128>>& blocks);  // device blocks, grouped

    Backend& backend_;
    BlockPool pool_;
    std::unique_ptr<HostBlockCache> ram_;
    std::unique_ptr<DiskBlockCache> disk_;
    std::unordered_map<uint64_t, Table> tables_;
    uint64_t blockBytes_;
    BlockTransfer transfer_;
    std::vector<uint8_t> diskBuffer_;  // a group of blocks on their way to or from disk files
    KvCacheCounters counters_;
};

}  // namespace hearth
