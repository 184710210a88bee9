#include "kv/FreeBlockQueue.h"

#include <cassert>

namespace hearth {

void FreeBlockQueue::pushBack(int32_t id) {
    KvBlock& b = blocks_[id];
    assert(!b.inFreeQueue);
    b.prev = tail_;
    b.next = -1;
    if (tail_ >= 0) blocks_[tail_].next = id;
    else head_ = id;
    tail_ = id;
    b.inFreeQueue = true;
    ++size_;
}

void FreeBlockQueue::pushFront(int32_t id) {
    KvBlock& b = blocks_[id];
    assert(!b.inFreeQueue);
    b.prev = -1;
    b.next = head_;
    if (head_ >= 0) blocks_[head_].prev = id;
    else tail_ = id;
    head_ = id;
    b.inFreeQueue = true;
    ++size_;
}

int32_t FreeBlockQueue::popFront() {
    assert(head_ >= 0);
    const int32_t id = head_;
    remove(id);
    return id;
}

void FreeBlockQueue::remove(int32_t id) {
    KvBlock& b = blocks_[id];
    assert(b.inFreeQueue);
    if (b.prev >= 0) blocks_[b.prev].next = b.next;
    else head_ = b.next;
    if (b.next >= 0) blocks_[b.next].prev = b.prev;
    else tail_ = b.prev;
    b.prev = b.next = -1;
    b.inFreeQueue = false;
    --size_;
}

}  // namespace hearth
