#pragma once
// Book-keeping for one physical KV block of the device pool (the KV bytes live in the backend).
//
// Invariants (maintained by BlockPool and FreeBlockQueue):
// - refCount counts the sequences whose block tables hold this block;
// - the block is in the free queue exactly when refCount == 0 (then inFreeQueue is true);
// - hasHash means the block holds the KV of a full block with that hash and is registered in the
//   pool's hash map; it keeps the hash while free and loses it only when reused (evicted).

#include <cstdint>

#include "kv/Hash128.h"

namespace hearth {

struct KvBlock {
    int32_t id = -1;
    int32_t refCount = 0;
    bool hasHash = false;
    Hash128 hash;
    // Free-queue links (block ids, -1 = none).
    int32_t prev = -1, next = -1;
    bool inFreeQueue = false;
};

}  // namespace hearth
