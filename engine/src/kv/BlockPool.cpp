#include "kv/BlockPool.h"

#include <cassert>

namespace hearth {

BlockPool::BlockPool(uint32_t numBlocks) : blocks_(numBlocks), free_(blocks_) {
    for (uint32_t i = 0; i < numBlocks; ++i) {
        blocks_[i].id = static_cast<int32_t>(i);
        free_.pushBack(static_cast<int32_t>(i));
    }
}

std::optional<int32_t> BlockPool::findCached(const Hash128& hash) const {
    auto it = byHash_.find(hash);
    if (it == byHash_.end()) return std::nullopt;
    return it->second;
}

std::vector<int32_t> BlockPool::allocate(uint32_t n, std::vector<std::pair<int32_t, Hash128>>* evicted) {
    assert(n <= numFree());
    std::vector<int32_t> out;
    out.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t id = free_.popFront();
        KvBlock& b = blocks_[id];
        if (b.hasHash) {
            byHash_.erase(b.hash);
            if (evicted) evicted->emplace_back(id, b.hash);
            b.hasHash = false;
            b.hash = {};
        }
        b.refCount = 1;
        out.push_back(id);
    }
    return out;
}

void BlockPool::touch(int32_t id) {
    KvBlock& b = blocks_[id];
    if (b.refCount == 0) free_.remove(id);
    ++b.refCount;
}

void BlockPool::release(std::span<const int32_t> ids) {
    for (int32_t id : ids) {
        KvBlock& b = blocks_[id];
        assert(b.refCount > 0);
        if (--b.refCount == 0) free_.pushBack(id);
    }
}

void BlockPool::releaseUnused(std::span<const int32_t> ids) {
    for (int32_t id : ids) {
        KvBlock& b = blocks_[id];
        assert(b.refCount > 0 && !b.hasHash);
        if (--b.refCount == 0) free_.pushFront(id);
    }
}

bool BlockPool::registerHash(int32_t id, const Hash128& hash) {
    KvBlock& b = blocks_[id];
    if (b.hasHash || byHash_.count(hash)) return false;
    b.hasHash = true;
    b.hash = hash;
    byHash_.emplace(hash, id);
    return true;
}

std::vector<std::pair<int32_t, Hash128>> BlockPool::cachedBlocks() const {
    std::vector<std::pair<int32_t, Hash128>> out;
    out.reserve(byHash_.size());
    for (const auto& [h, id] : byHash_) out.emplace_back(id, h);
    return out;
}

}  // namespace hearth
