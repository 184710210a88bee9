#pragma once
// The RAM tier: a host memory pool of KV block slots that receives hashed blocks evicted from the
// device (LRU), plus "private" slots holding a preempted sequence's partial tail block.
//
// Invariants:
// - the slot memory (capacity() * blockBytes) is allocated once, at construction;
// - every slot is exactly one of: free, a cached entry (keyed by its block hash, in the LRU list),
//   or private (owned by one preempted sequence until released);
// - pinned entries are never evicted (a prefix hit pins the entries it is about to copy back, so
//   evictions caused by that same allocation cannot take them);
// - an entry evicted to make room is handed to the spill function (the disk tier) before its
//   slot is reused.

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "kv/Hash128.h"

namespace hearth {

class HostBlockCache {
public:
    using SpillFn = std::function<void(const Hash128& hash, const uint8_t* data)>;

    HostBlockCache(uint64_t capacityBytes, uint64_t blockBytes);
    ~HostBlockCache();
    HostBlockCache(const HostBlockCache&) = delete;
    HostBlockCache& operator=(const HostBlockCache&) = delete;

    void setSpill(SpillFn spill) { spill_ = std::move(spill); }
    // The slot memory (capacity() * blockBytes() bytes, null when empty), and a function called with
    // it just before it is freed (e.g. to unregister it from a device backend).
    uint8_t* memory() { return data_.get(); }
    uint64_t memoryBytes() const { return static_cast<uint64_t>(capacity_) * blockBytes_; }
    void setRelease(std::function<void(uint8_t*)> release) { release_ = std::move(release); }

    uint64_t blockBytes() const { return blockBytes_; }
    uint32_t capacity() const { return capacity_; }
    uint32_t numEntries() const { return static_cast<uint32_t>(entries_.size()); }
    uint32_t numPrivate() const { return numPrivate_; }
    uint32_t numUsed() const { return numEntries() + numPrivate_; }

    bool contains(const Hash128& h) const { return entries_.count(h) != 0; }
    const uint8_t* find(const Hash128& h) const;
    void touch(const Hash128& h);  // most recently used
    void pin(const Hash128& h);
    void unpin(const Hash128& h);

    struct Insert {
        uint8_t* slot = nullptr;  // bytes to fill (blockBytes); null when present already or no room
        bool present = false;
    };
    // Makes room for an entry (evicting the LRU unpinned one if full) and returns its slot.
    Insert insert(const Hash128& h);
    // Forgets an entry (its slot becomes free), e.g. when filling its slot failed.
    void erase(const Hash128& h);

    // Slots a preempted sequence can take without touching pinned entries.
    uint32_t roomForPrivate() const;
    std::optional<uint32_t> takePrivateSlot();
    uint8_t* slotData(uint32_t slot) { return data_.get() + static_cast<uint64_t>(slot) * blockBytes_; }
    void releasePrivateSlot(uint32_t slot);

    // Visits every cached entry (for persisting to disk at shutdown), least recently used first.
    void forEach(const std::function<void(const Hash128&, const uint8_t*)>& fn) const;

private:
    struct Entry {
        uint32_t slot;
        int32_t pins = 0;
        std::list<Hash128>::iterator lru;
    };
    std::optional<uint32_t> freeSlot();  // a free slot, evicting if needed

    uint64_t blockBytes_;
    uint32_t capacity_;
    std::unique_ptr<uint8_t[]> data_;
    std::vector<uint32_t> free_;
    uint32_t numPrivate_ = 0;
    uint32_t numPinned_ = 0;
    std::unordered_map<Hash128, Entry, Hash128Hasher> entries_;
    std::list<Hash128> lru_;  // front = least recently used
    SpillFn spill_;
    std::function<void(uint8_t*)> release_;
};

}  // namespace hearth
