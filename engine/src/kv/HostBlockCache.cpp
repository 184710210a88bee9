#include "kv/HostBlockCache.h"

#include <cassert>

namespace hearth {

HostBlockCache::HostBlockCache(uint64_t capacityBytes, uint64_t blockBytes)
    : blockBytes_(blockBytes), capacity_(blockBytes ? static_cast<uint32_t>(capacityBytes / blockBytes) : 0) {
    // Uninitialised on purpose: the OS commits pages as slots are first written.
    if (capacity_) data_ = std::make_unique_for_overwrite<uint8_t[]>(static_cast<uint64_t>(capacity_) * blockBytes_);
    free_.reserve(capacity_);
    for (uint32_t i = capacity_; i > 0; --i) free_.push_back(i - 1);
}

HostBlockCache::~HostBlockCache() {
    if (release_ && data_) release_(data_.get());
}

const uint8_t* HostBlockCache::find(const Hash128& h) const {
    auto it = entries_.find(h);
    if (it == entries_.end()) return nullptr;
    return data_.get() + static_cast<uint64_t>(it->second.slot) * blockBytes_;
}

void HostBlockCache::touch(const Hash128& h) {
    auto it = entries_.find(h);
    if (it == entries_.end()) return;
    lru_.splice(lru_.end(), lru_, it->second.lru);
}

void HostBlockCache::pin(const Hash128& h) {
    auto it = entries_.find(h);
    if (it == entries_.end()) return;
    if (it->second.pins++ == 0) ++numPinned_;
}

void HostBlockCache::unpin(const Hash128& h) {
    auto it = entries_.find(h);
    if (it == entries_.end() || it->second.pins == 0) return;
    if (--it->second.pins == 0) --numPinned_;
}

std::optional<uint32_t> HostBlockCache::freeSlot() {
    if (!free_.empty()) {
        const uint32_t s = free_.back();
        free_.pop_back();
        return s;
    }
    for (auto it = lru_.begin(); it != lru_.end(); ++it) {
        auto e = entries_.find(*it);
        assert(e != entries_.end());
        if (e->second.pins) continue;
        const uint32_t s = e->second.slot;
        if (spill_) spill_(e->first, slotData(s));
        lru_.erase(it);
        entries_.erase(e);
        return s;
    }
    return std::nullopt;
}

HostBlockCache::Insert HostBlockCache::insert(const Hash128& h) {
    if (auto it = entries_.find(h); it != entries_.end()) {
        lru_.splice(lru_.end(), lru_, it->second.lru);
        return {nullptr, true};
    }
    auto s = freeSlot();
    if (!s) return {};
    lru_.push_back(h);
    entries_.emplace(h, Entry{*s, 0, std::prev(lru_.end())});
    return {slotData(*s), false};
}

void HostBlockCache::erase(const Hash128& h) {
    auto it = entries_.find(h);
    if (it == entries_.end()) return;
    if (it->second.pins) --numPinned_;
    free_.push_back(it->second.slot);
    lru_.erase(it->second.lru);
    entries_.erase(it);
}

uint32_t HostBlockCache::roomForPrivate() const {
    return static_cast<uint32_t>(free_.size()) + numEntries() - numPinned_;
}

std::optional<uint32_t> HostBlockCache::takePrivateSlot() {
    auto s = freeSlot();
    if (s) ++numPrivate_;
    return s;
}

void HostBlockCache::releasePrivateSlot(uint32_t slot) {
    assert(numPrivate_ > 0);
    --numPrivate_;
    free_.push_back(slot);
}

void HostBlockCache::forEach(const std::function<void(const Hash128&, const uint8_t*)>& fn) const {
    for (const auto& h : lru_) fn(h, find(h));
}

}  // namespace hearth
