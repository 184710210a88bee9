// Block pool, LRU free queue and block hashing.
#include <gtest/gtest.h>

#include <set>

#include "kv/BlockHasher.h"
#include "kv/BlockPool.h"
#include "kv/FreeBlockQueue.h"
#include "kv/StableHasher.h"

namespace hearth {
namespace {

TEST(FreeBlockQueue, FifoOrderAndRemoveFromTheMiddle) {
    std::vector<KvBlock> blocks(5);
    for (int i = 0; i < 5; ++i) blocks[i].id = i;
    FreeBlockQueue q(blocks);
    for (int i = 0; i < 5; ++i) q.pushBack(i);
    EXPECT_EQ(q.size(), 5u);
    q.remove(2);  // middle
    q.remove(0);  // head
    q.remove(4);  // tail
    EXPECT_EQ(q.size(), 2u);
    EXPECT_FALSE(blocks[2].inFreeQueue);
    q.pushBack(2);
    q.pushBack(0);
    std::vector<int32_t> order;
    while (!q.empty()) order.push_back(q.popFront());
    EXPECT_EQ(order, (std::vector<int32_t>{1, 3, 2, 0}));
    for (const auto& b : blocks) EXPECT_FALSE(b.inFreeQueue);
}

TEST(BlockPool, AllocateTakesLeastRecentlyFreedAndEvictsTheirHashes) {
    BlockPool pool(4);
    EXPECT_EQ(pool.numFree(), 4u);
    auto a = pool.allocate(3, nullptr);
    EXPECT_EQ(a, (std::vector<int32_t>{0, 1, 2}));
    EXPECT_EQ(pool.numFree(), 1u);
    const Hash128 h0{1, 2}, h1{3, 4};
    EXPECT_TRUE(pool.registerHash(a[0], h0));
    EXPECT_TRUE(pool.registerHash(a[1], h1));
    EXPECT_FALSE(pool.registerHash(a[2], h0)) << "a hash belongs to one block";
    EXPECT_FALSE(pool.registerHash(a[0], h1)) << "a block has one hash";
    // Free tail-first: block 2, then 1, then 0 join the queue behind block 3.
    std::vector<int32_t> rev(a.rbegin(), a.rend());
    pool.release(rev);
    EXPECT_EQ(pool.numFree(), 4u);
    EXPECT_EQ(pool.numCached(), 2u) << "free blocks keep their hashes";
    EXPECT_EQ(pool.findCached(h0), 0);

    std::vector<std::pair<int32_t, Hash128>> evicted;
    auto b = pool.allocate(3, &evicted);
    EXPECT_EQ(b, (std::vector<int32_t>{3, 2, 1}));
    ASSERT_EQ(evicted.size(), 1u);
    EXPECT_EQ(evicted[0].first, 1);
    EXPECT_EQ(evicted[0].second, h1);
    EXPECT_FALSE(pool.findCached(h1));
    EXPECT_EQ(pool.findCached(h0), 0) << "block 0 is still free and cached";
}

TEST(BlockPool, TouchRevivesAFreeCachedBlockAndSharesIt) {
    BlockPool pool(3);
    auto a = pool.allocate(1, nullptr);
    ASSERT_TRUE(pool.registerHash(a[0], Hash128{7, 7}));
    pool.release(a);
    EXPECT_EQ(pool.numFree(), 3u);
    pool.touch(a[0]);  // a prefix hit on a free block
    EXPECT_EQ(pool.numFree(), 2u);
    EXPECT_FALSE(pool.block(a[0]).inFreeQueue);
    pool.touch(a[0]);  // a second sharer
    EXPECT_EQ(pool.block(a[0]).refCount, 2);
    pool.release(a);
    EXPECT_EQ(pool.numFree(), 2u) << "still referenced once";
    pool.release(a);
    EXPECT_EQ(pool.numFree(), 3u);
    // The revived block went to the tail: the other two are reused first.
    std::vector<std::pair<int32_t, Hash128>> evicted;
    auto b = pool.allocate(2, &evicted);
    EXPECT_TRUE(evicted.empty());
    EXPECT_EQ(std::set<int32_t>(b.begin(), b.end()), (std::set<int32_t>{1, 2}));
}

TEST(BlockHasher, ChainsOverParentsAndSeparatesSalts) {
    std::vector<TokenId> t(40);
    for (int i = 0; i < 40; ++i) t[i] = i * 7 % 13;
    const Hash128 extra = BlockHasher::extraKey(Hash128{11, 12}, "");
    std::vector<Hash128> h;
    BlockHasher::extend(h, t, extra);
    ASSERT_EQ(h.size(), 2u) << "40 tokens = 2 full blocks";
    EXPECT_EQ(h[0], BlockHasher::hashBlock({}, std::span(t).subspan(0, 16), extra));
    EXPECT_EQ(h[1], BlockHasher::hashBlock(h[0], std::span(t).subspan(16, 16), extra));
    // Same tokens in block 1 under another first block: a different hash.
    std::vector<TokenId> u = t;
    u[0] += 1;
    std::vector<Hash128> hu;
    BlockHasher::extend(hu, u, extra);
    EXPECT_NE(hu[1], h[1]);
    // Another salt or model: nothing shared.
    std::vector<Hash128> hs;
    BlockHasher::extend(hs, t, BlockHasher::extraKey(Hash128{11, 12}, "tenant-b"));
    EXPECT_NE(hs[0], h[0]);
    std::vector<Hash128> hm;
    BlockHasher::extend(hm, t, BlockHasher::extraKey(Hash128{11, 13}, ""));
    EXPECT_NE(hm[0], h[0]);
    // extend() is incremental.
    std::vector<Hash128> inc;
    BlockHasher::extend(inc, std::span(t).subspan(0, 20), extra);
    EXPECT_EQ(inc.size(), 1u);
    BlockHasher::extend(inc, t, extra);
    EXPECT_EQ(inc, h);
}

TEST(StableHasher, IsStableAcrossRunsAndSensitiveToEveryByte) {
    // Disk cache files depend on these values never changing; this pins the definition.
    const char text[] = "hearth kv";
    const Hash128 a = stableHash(text, sizeof text - 1);
    EXPECT_EQ(a.hex(), stableHash(text, sizeof text - 1).hex());
    EXPECT_EQ(a.hex(), "ab4d8f73f0e96eaedfc775e16ba71e17");
    std::string s(1000, 'x');
    const Hash128 base = stableHash(s.data(), s.size());
    for (size_t i = 0; i < s.size(); i += 97) {
        std::string t = s;
        t[i] ^= 1;
        EXPECT_NE(stableHash(t.data(), t.size()), base) << i;
    }
    EXPECT_NE(stableHash(s.data(), 999), base) << "length matters";
    EXPECT_NE(stableHash(s.data(), s.size(), 1), base) << "seed matters";
}

}  // namespace
}  // namespace hearth
