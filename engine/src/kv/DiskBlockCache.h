#pragma once
// The disk tier: KV blocks as files under a cache directory, so a long document's context survives
// an engine restart. One file per block, in a subdirectory named after the model fingerprint:
//
//   <dir>/<fingerprint hex>/<block hash hex>.kvb
//   offset  0  char[8]  "HEARTHKV"
//           8  u32      format version (1)
//          12  u32      header bytes (64)
//          16  u64 x2   model fingerprint (hi, lo)  -- model file, backend, KV dtype and layout
//          32  u64 x2   block hash (hi, lo)         -- must match the file name
//          48  u64      payload bytes               -- must equal the backend's kvBlockBytes
//          56  u64      payload checksum (StableHasher, seed kChecksumSeed, low word)
//          64  payload
// (little-endian). Files are written to a temporary name and renamed, so a crash leaves either the
// old state or a whole file.
//
// Invariants:
// - the index holds only files whose header matched this fingerprint, hash and size at open/write
//   time; a file that fails any check (or its checksum on read) is deleted and forgotten, so a
//   corrupt or stale file is never used and is never fatal;
// - bytesUsed() <= capBytes(): writing evicts least recently used files first.

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

#include "hearth/result.h"
#include "kv/Hash128.h"

namespace hearth {

class DiskBlockCache {
public:
    static constexpr uint64_t kChecksumSeed = 0x6b766469736b3031ull;
    static constexpr uint32_t kHeaderBytes = 64;
    static constexpr uint32_t kVersion = 1;

    // Creates the directory if needed and indexes the valid files found there.
    static Result<std::unique_ptr<DiskBlockCache>> open(const std::string& dir, const Hash128& fingerprint,
                                                        uint64_t capBytes, uint64_t blockBytes);

    uint64_t capBytes() const { return capBytes_; }
    uint64_t bytesUsed() const { return bytesUsed_; }
    uint32_t numBlocks() const { return static_cast<uint32_t>(index_.size()); }
    uint32_t numRejected() const { return rejected_; }  // files found invalid so far
    const std::string& directory() const { return dir_; }

    bool contains(const Hash128& h) const { return index_.count(h) != 0; }
    // Stores a block (no-op when present). Errors leave the cache consistent (the block is absent).
    Status write(const Hash128& h, const uint8_t* data);
    // Reads and verifies a block into dst (blockBytes). On any failure the file is dropped.
    Status read(const Hash128& h, uint8_t* dst);

private:
    DiskBlockCache(std::string dir, const Hash128& fingerprint, uint64_t capBytes, uint64_t blockBytes);
    std::string pathOf(const Hash128& h) const;
    void scan();
    void drop(const Hash128& h);
    void add(const Hash128& h);

    std::string dir_;
    Hash128 fingerprint_;
    uint64_t capBytes_, blockBytes_;
    uint64_t bytesUsed_ = 0;
    uint32_t rejected_ = 0;
    std::unordered_map<Hash128, std::list<Hash128>::iterator, Hash128Hasher> index_;
    std::list<Hash128> lru_;  // front = least recently used
};

}  // namespace hearth
