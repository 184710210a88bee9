#include "kv/KvCacheManager.h"

#include <algorithm>
#include <cassert>

namespace hearth {

KvCacheManager::KvCacheManager(Backend& backend, uint32_t numBlocks, uint64_t blockBytes,
                               std::unique_ptr<HostBlockCache> ram, std::unique_ptr<DiskBlockCache> disk)
    : backend_(backend),
      pool_(numBlocks),
      ram_(std::move(ram)),
      disk_(std::move(disk)),
      blockBytes_(blockBytes),
      transfer_(backend, blockBytes) {
    if (ram_ && ram_->capacity() == 0) ram_.reset();
    if (ram_ && disk_) ram_->setSpill([this](const Hash128& h, const uint8_t* data) { spillFromRam(h, data); });
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
    if (evicted.empty()) return blocks;
    // Each evicted block's destination: a RAM slot (pinned until filled, so later inserts of this
    // same batch cannot evict it unfilled), else a disk file.
    std::vector<int32_t> ramBlocks;
    std::vector<uint8_t*> ramSlots;
    std::vector<Hash128> ramHashes;
    std::vector<std::pair<int32_t, Hash128>> toDisk;
    for (const auto& [b, h] : evicted) {
        if (ram_) {
            auto ins = ram_->insert(h);
            if (ins.present) continue;
            if (ins.slot) {
                ram_->pin(h);
                ramBlocks.push_back(b);
                ramSlots.push_back(ins.slot);
                ramHashes.push_back(h);
                continue;
            }
        }
        if (disk_ && !disk_->contains(h)) toDisk.emplace_back(b, h);
    }
    if (!ramBlocks.empty()) {
        const bool ok = transfer_.toHost(ramBlocks, ramSlots).ok();
        for (const Hash128& h : ramHashes) {
            if (ok) ram_->unpin(h);
            else ram_->erase(h);
        }
        if (ok) counters_.evictedToRam += ramBlocks.size();
        else counters_.ioErrors += ramBlocks.size();
    }
    writeToDisk(toDisk);
    return blocks;
}

void KvCacheManager::writeToDisk(const std::vector<std::pair<int32_t, Hash128>>& blocks) {
    const size_t g = transfer_.groupSize();
    std::vector<int32_t> ids;
    std::vector<uint8_t*> dst;
    for (size_t at = 0; at < blocks.size(); at += g) {
        const size_t cnt = std::min(g, blocks.size() - at);
        ids.resize(cnt);
        dst.resize(cnt);
        diskBuffer_.resize(cnt * blockBytes_);
        for (size_t i = 0; i < cnt; ++i) {
            ids[i] = blocks[at + i].first;
            dst[i] = diskBuffer_.data() + i * blockBytes_;
        }
        if (!transfer_.toHost(ids, dst).ok()) {
            counters_.ioErrors += cnt;
            continue;
        }
        for (size_t i = 0; i < cnt; ++i) {
            if (disk_->write(blocks[at + i].second, dst[i]).ok()) ++counters_.evictedToDisk;
            else ++counters_.ioErrors;
        }
    }
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
        // RAM and disk hits go to their fresh device blocks in groups (one backend call each).
        // A failure at block i means recompute from i: every block after it is fresh (Device
        // hits only come first), so nothing shared is ever overwritten.
        bool failed = false;
        const size_t g = transfer_.groupSize();
        std::vector<int32_t> ids;
        std::vector<const uint8_t*> src;
        std::vector<size_t> which;  // index into hit->blocks
        size_t diskUsed = 0;
        auto fail = [&](size_t index) {
            failed = true;
            computed = std::min(computed, static_cast<int32_t>(index) * kBlockSize);
        };
        auto flush = [&] {
            if (ids.empty()) return;
            if (transfer_.fromHost(ids, src).ok()) {
                for (size_t k = 0; k < ids.size(); ++k) {
                    const CachedBlockRef& ref = hit->blocks[which[k]];
                    pool_.registerHash(ids[k], ref.hash);
                    if (ref.tier == CacheTier::Ram) ++counters_.copiedInFromRam;
                    else ++counters_.copiedInFromDisk;
                }
            } else {
                counters_.ioErrors += ids.size();
                fail(which.front());
            }
            ids.clear();
            src.clear();
            which.clear();
            diskUsed = 0;
        };
        diskBuffer_.resize(disk_ ? std::min<size_t>(g, hit->count(CacheTier::Disk)) * blockBytes_ : 0);
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
            if (ref.tier == CacheTier::Ram) {
                src.push_back(ram_->find(ref.hash));
                ram_->touch(ref.hash);
            } else {
                if (diskUsed * blockBytes_ >= diskBuffer_.size()) flush();
                uint8_t* dst = diskBuffer_.data() + diskUsed * blockBytes_;
                if (!disk_->read(ref.hash, dst).ok()) {
                    ++counters_.diskReadFailures;
                    flush();  // the blocks before this one are good
                    fail(i);
                    continue;
                }
                ++diskUsed;
                src.push_back(dst);
            }
            ids.push_back(b);
            which.push_back(i);
            if (ids.size() >= g) flush();
        }
        flush();
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

void KvCacheManager::truncate(uint64_t id, int32_t numTokens) {
    auto it = tables_.find(id);
    if (it == tables_.end()) return;
    Table& t = it->second;
    const size_t keep = static_cast<size_t>(std::max(0, numTokens) + kBlockSize - 1) / kBlockSize;
    assert(keep >= static_cast<size_t>(t.numHashed));
    if (keep >= t.blocks.size()) return;
    pool_.releaseUnused(std::span<const int32_t>(t.blocks).subspan(keep));
    t.blocks.resize(keep);
}

const std::vector<int32_t>& KvCacheManager::blockTable(uint64_t id) const {
    static const std::vector<int32_t> none;
    auto it = tables_.find(id);
    return it == tables_.end() ? none : it->second.blocks;
}

void KvCacheManager::persistToDisk() {
    if (!disk_) return;
    if (ram_) ram_->forEach([this](const Hash128& h, const uint8_t* data) { spillFromRam(h, data); });
    std::vector<std::pair<int32_t, Hash128>> missing;
    for (const auto& bh : pool_.cachedBlocks())
        if (!disk_->contains(bh.second)) missing.push_back(bh);
    writeToDisk(missing);
}

}  // namespace hearth
