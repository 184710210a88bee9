#pragma once
// The LRU queue of free device blocks: a doubly linked list threaded through the KvBlock array, so
// a block that a prefix hit revives can be removed from the middle in O(1).
//
// Invariants: the queue holds each block at most once; head is the least recently freed block
// (the next one to reuse, evicting its cached hash), tail the most recently freed; size() equals
// the number of blocks with inFreeQueue set.

#include <cstdint>
#include <vector>

#include "kv/KvBlock.h"

namespace hearth {

class FreeBlockQueue {
public:
    explicit FreeBlockQueue(std::vector<KvBlock>& blocks) : blocks_(blocks) {}

    uint32_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int32_t front() const { return head_; }

    void pushBack(int32_t id);
    // For a block whose contents are worth nothing (rejected draft KV): reused before any other.
    void pushFront(int32_t id);
    int32_t popFront();   // precondition: !empty()
    void remove(int32_t id);  // precondition: blocks_[id].inFreeQueue

private:
    std::vector<KvBlock>& blocks_;
    int32_t head_ = -1, tail_ = -1;
    uint32_t size_ = 0;
};

}  // namespace hearth
