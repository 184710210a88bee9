#include "kv/KvCacheManager.h"

#include <algorithm>
#include <cassert>

namespace hearth {

KvCacheManager::KvCacheManager(Backend& backend, uint32_t numBlocks, uint64_t blockBytes,
                               std::unique_ptr<HostBlockCache> ram, std::unique_ptr<DiskBlockCache> disk)
    : backend_(backend), pool_(numBlocks), ram_(std::move(ram)), disk_(std::move(disk)) {
    if (ram_ && ram_->capacity() == 0) ram_.reset();
    if (ram_ && disk_) ram_->setSpill([this](const Hash128& h, const uint8_t* data) { spillFromRam(h, data); });
    if (disk_) staging_.resize(blockBytes);
}

KvCacheManager::~KvCacheManager() {
    if (ram_) ram_->setSpill({});  // the disk tier dies first otherwise
}

PrefixLookup KvCacheManager::lookup(std::span<const Hash128> hashes, int32_t maxBlocks, int32_t tailSlot,
                                    int32_t tailBlockIndex, int32_t tailTokens) const {
    PrefixLookup r;
    const int32_t n = std::min<int32_t>(maxBlocks, static_cast<int32_t>(hashes.size()));
    bool onDevice = true;  // device hits only while the chain is still on the device
    for (int32_t i = 0; i < n; ++i) {
        const Hash128& h = hashes[i];
        if (onDevice) {
            if (auto b = pool_.findCached(h)) {
                r.blocks.push_back({CacheTier::Device, h, *b});
                continue;
            }
            onDevice = false;
        }
        if (ram_ && ram_->contains(h)) r.blocks.push_back({CacheTier::Ram, h, -1});
        else if (disk_ && disk_->contains(h)) r.blocks.push_back({CacheTier::Disk, h, -1});
        else break;
    }
    if (tailSlot >= 0 && tailTokens > 0 && tailBlockIndex == static_cast<int32_t>(r.blocks.size())) {
        r.tailSlot = tailSlot;
        r.tailTokens = tailTokens;
    }
    return r;
}

int32_t KvCacheManager::blocksNeeded(const Table* t, int32_t numComputed, int32_t numNewTokens,
                                     const PrefixLookup* hit, int32_t* reviveFromFree) const {
    const int32_t total = (numComputed + numNewTokens + kBlockSize - 1) / kBlockSize;
    int32_t have = t ? static_cast<int32_t>(t->blocks.size()) : 0;
    int32_t revive = 0;
    if (hit) {
        for (const auto& b : hit->blocks) {
            if (b.tier != CacheTier::Device) continue;
            ++have;
            if (pool_.block(b.deviceBlock).refCount == 0) ++revive;
        }
    }
    *reviveFromFree = revive;
    return std::max(0, total - have);
}

bool KvCacheManager::canAllocate(uint64_t id, int32_t numComputed, int32_t numNewTokens, const PrefixLookup* hit) const {
    auto it = tables_.find(id);
    int32_t revive = 0;
    const int32_t need = blocksNeeded(it == tables_.end() ? nullptr : &it->second, numComputed, numNewTokens, hit, &revive);
    return need <= static_cast<int32_t>(pool_.numFree()) - revive;
}

std::vector<int32_t> KvCacheManager::takeBlocks(uint32_t n) {
    std::vector<std::pair<int32_t, Hash128>> evicted;
    std::vector<int32_t> blocks = pool_.allocate(n, &evicted);
    for (const auto& [b, h] : evicted) {
        const int32_t one[1] = {b};
        bool saved = false;
        if (ram_) {
            auto ins = ram_->insert(h);
            if (ins.present) {
                saved = true;
            } else if (ins.slot) {
                if (backend_.copyBlocksToHost(one, ins.slot).ok()) {
                    saved = true;
                    ++counters_.evictedToRam;
                } else {
                    ram_->erase(h);
                    ++counters_.ioErrors;
                }
            }
        }
        if (!saved && disk_ && !disk_->contains(h)) {
            if (backend_.copyBlocksToHost(one, staging_.data()).ok() && disk_->write(h, staging_.data()).ok())
                ++counters_.evictedToDisk;
            else
                ++counters_.ioErrors;
        }
    }
    return blocks;
}

void KvCacheManager::spillFromRam(const Hash128& h, const uint8_t* data) {
    if (!disk_ || disk_->contains(h)) return;
    if (disk_->write(h, data).ok()) ++counters_.ramToDisk;
    else ++counters_.ioErrors;
}

std::optional<int32_t> KvCacheManager::allocateSlots(uint64_t id, int32_t numComputed, int32_t numNewTokens,
                                                     const PrefixLookup* hit) {
    auto it = tables_.find(id);
    assert(!hit || it == tables_.end());
    assert(!hit || hit->numTokens() == numComputed);
    int32_t revive = 0;
    const int32_t need = blocksNeeded(it == tables_.end() ? nullptr : &it->second, numComputed, numNewTokens, hit, &revive);
    if (need > static_cast<int32_t>(pool_.numFree()) - revive) return std::nullopt;

    Table& t = tables_[id];
    int32_t computed = numComputed;
    if (hit) {
        for (const auto& b : hit->blocks) {
            if (b.tier == CacheTier::Device) pool_.touch(b.deviceBlock);
            else if (b.tier == CacheTier::Ram) ram_->pin(b.hash);
        }
    }
    const std::vector<int32_t> fresh = takeBlocks(static_cast<uint32_t>(need));
    size_t f = 0;
    if (hit) {
        bool failed = false;
        for (size_t i = 0; i < hit->blocks.size(); ++i) {
            const CachedBlockRef& ref = hit->blocks[i];
            if (ref.tier == CacheTier::Device) {
                assert(!failed);
                t.blocks.push_back(ref.deviceBlock);
                continue;
            }
            const int32_t b = fresh[f++];
            t.blocks.push_back(b);
            if (failed) continue;
            const int32_t one[1] = {b};
            bool ok;
            if (ref.tier == CacheTier::Ram) {
                ok = backend_.copyBlocksFromHost(one, ram_->find(ref.hash)).ok();
                ram_->touch(ref.hash);
                if (ok) ++counters_.copiedInFromRam;
                else ++counters_.ioErrors;
            } else {
                ok = disk_->read(ref.hash, staging_.data()).ok() && backend_.copyBlocksFromHost(one, staging_.data()).ok();
                if (ok) ++counters_.copiedInFromDisk;
                else ++counters_.diskReadFailures;
            }
            if (ok) {
                pool_.registerHash(b, ref.hash);
            } else {
                failed = true;  // recompute from here; every later block is fresh
                computed = static_cast<int32_t>(i) * kBlockSize;
            }
        }
        t.numHashed = failed ? computed / kBlockSize : static_cast<int32_t>(hit->blocks.size());
        for (const auto& b : hit->blocks)
            if (b.tier == CacheTier::Ram) ram_->unpin(b.hash);
        if (hit->tailSlot >= 0) {
            const int32_t b = fresh[f++];
            t.blocks.push_back(b);
            const int32_t one[1] = {b};
            if (!failed && !backend_.copyBlocksFromHost(one, ram_->slotData(hit->tailSlot)).ok()) {
                ++counters_.ioErrors;
                computed -= hit->tailTokens;
            }
            ram_->releasePrivateSlot(hit->tailSlot);
        }
    }
    for (; f < fresh.size(); ++f) t.blocks.push_back(fresh[f]);
    return computed;
}

void KvCacheManager::cacheComputedBlocks(uint64_t id, std::span<const Hash128> hashes, int32_t numComputed) {
    auto it = tables_.find(id);
    if (it == tables_.end()) return;
    Table& t = it->second;
    const int32_t full = std::min<int32_t>({numComputed / kBlockSize, static_cast<int32_t>(hashes.size()),
                                            static_cast<int32_t>(t.blocks.size())});
    for (int32_t i = t.numHashed; i < full; ++i) pool_.registerHash(t.blocks[i], hashes[i]);  // false: a duplicate
    t.numHashed = std::max(t.numHashed, full);
}

std::optional<int32_t> KvCacheManager::swapOutTail(uint64_t id, int32_t numComputed) {
    auto it = tables_.find(id);
    if (!ram_ || it == tables_.end() || numComputed % kBlockSize == 0) return std::nullopt;
    const size_t idx = numComputed / kBlockSize;
    if (idx >= it->second.blocks.size() || ram_->roomForPrivate() == 0) return std::nullopt;
    auto slot = ram_->takePrivateSlot();
    if (!slot) return std::nullopt;
    const int32_t one[1] = {it->second.blocks[idx]};
    if (!backend_.copyBlocksToHost(one, ram_->slotData(*slot)).ok()) {
        ram_->releasePrivateSlot(*slot);
        ++counters_.ioErrors;
        return std::nullopt;
    }
    ++counters_.swappedOut;
    return static_cast<int32_t>(*slot);
}

void KvCacheManager::releaseSwapSlot(int32_t slot) {
    if (ram_ && slot >= 0) ram_->releasePrivateSlot(static_cast<uint32_t>(slot));
}

void KvCacheManager::freeSequence(uint64_t id) {
    auto it = tables_.find(id);
    if (it == tables_.end()) return;
    std::vector<int32_t>& b = it->second.blocks;
    std::reverse(b.begin(), b.end());
    pool_.release(b);
    tables_.erase(it);
}

const std::vector<int32_t>& KvCacheManager::blockTable(uint64_t id) const {
    static const std::vector<int32_t> none;
    auto it = tables_.find(id);
    return it == tables_.end() ? none : it->second.blocks;
}

void KvCacheManager::persistToDisk() {
    if (!disk_) return;
    if (ram_) ram_->forEach([this](const Hash128& h, const uint8_t* data) { spillFromRam(h, data); });
    for (const auto& [b, h] : pool_.cachedBlocks()) {
        if (disk_->contains(h)) continue;
        const int32_t one[1] = {b};
        if (backend_.copyBlocksToHost(one, staging_.data()).ok() && disk_->write(h, staging_.data()).ok())
            ++counters_.evictedToDisk;
        else
            ++counters_.ioErrors;
    }
}

}  // namespace hearth
