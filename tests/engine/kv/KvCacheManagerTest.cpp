// The KV cache manager: prefix lookup, check-first allocation, and moving blocks between the
// device pool, the RAM tier and the disk tier (with the fake backend's exact KV contents).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "FakeBackend.h"
#include "kv/BlockHasher.h"
#include "kv/KvCacheManager.h"

namespace hearth {
namespace {
namespace fs = std::filesystem;
using test::FakeBackend;

class KvCacheManagerTest : public ::testing::Test {
protected:
    void TearDown() override {
        kv_.reset();
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    void init(uint32_t blocks, uint32_t ramBlocks, bool disk = false) {
        ASSERT_TRUE(be_.allocateKv(blocks, KvDType::F16).ok());
        const uint64_t bb = be_.kvBlockBytes(KvDType::F16);
        std::unique_ptr<HostBlockCache> ram;
        if (ramBlocks) ram = std::make_unique<HostBlockCache>(ramBlocks * bb, bb);
        std::unique_ptr<DiskBlockCache> d;
        if (disk) {
            dir_ = fs::temp_directory_path() / ("hearth-kvm-" + std::to_string(::getpid()));
            fs::remove_all(dir_);
            auto r = DiskBlockCache::open(dir_.string(), Hash128{1, 2}, 1 << 20, bb);
            ASSERT_TRUE(r.ok());
            d = std::move(*r);
        }
        kv_ = std::make_unique<KvCacheManager>(be_, blocks, bb, std::move(ram), std::move(d));
    }
    static std::vector<TokenId> tokens(int n, int salt) {
        std::vector<TokenId> t(n);
        for (int i = 0; i < n; ++i) t[i] = (i * 5 + salt) % 60;
        return t;
    }
    // Computes tokens [from, to) of sequence id through the fake backend.
    void compute(uint64_t id, const std::vector<TokenId>& t, int from, int to) {
        ForwardBatch b;
        std::vector<TokenId> slice(t.begin() + from, t.begin() + to);
        b.addSequence(slice, from, kv_->blockTable(id), false, true);
        std::vector<float> logits;
        Status s = be_.forward(b, logits);
        ASSERT_TRUE(s.ok()) << s.error().toString();
    }
    std::vector<uint8_t> bytesOf(int32_t block) {
        std::vector<uint8_t> v(be_.kvBlockBytes(KvDType::F16));
        const int32_t one[1] = {block};
        EXPECT_TRUE(be_.copyBlocksToHost(one, v.data()).ok());
        return v;
    }
    // A whole sequence: allocate, compute, cache its full blocks.
    std::vector<Hash128> run(uint64_t id, const std::vector<TokenId>& t) {
        std::vector<Hash128> h;
        BlockHasher::extend(h, t, extra_);
        EXPECT_TRUE(kv_->allocateSlots(id, 0, static_cast<int32_t>(t.size())));
        compute(id, t, 0, static_cast<int32_t>(t.size()));
        kv_->cacheComputedBlocks(id, h, static_cast<int32_t>(t.size()));
        return h;
    }

    FakeBackend be_;
    std::unique_ptr<KvCacheManager> kv_;
    Hash128 extra_ = BlockHasher::extraKey(Hash128{1, 2}, "");
    fs::path dir_;
};

TEST_F(KvCacheManagerTest, SecondSequenceSharesTheCachedPrefixOnTheDevice) {
    init(16, 0);
    const auto t = tokens(50, 0);  // 3 full blocks + 2 tokens
    const auto h = run(1, t);
    EXPECT_EQ(kv_->pool().numCached(), 3u);
    const auto table1 = kv_->blockTable(1);

    PrefixLookup hit = kv_->lookup(h, (50 - 1) / kBlockSize);
    ASSERT_EQ(hit.blocks.size(), 3u);
    EXPECT_EQ(hit.count(CacheTier::Device), 3);
    EXPECT_EQ(hit.numTokens(), 48);
    // The cap: a 48-token prompt may reuse only 2 blocks, so its last token is recomputed.
    EXPECT_EQ(kv_->lookup(h, (48 - 1) / kBlockSize).blocks.size(), 2u);

    const uint32_t freeBefore = kv_->numFreeBlocks();
    auto c = kv_->allocateSlots(2, hit.numTokens(), 2, &hit);
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, 48);
    const auto& table2 = kv_->blockTable(2);
    ASSERT_EQ(table2.size(), 4u);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(table2[i], table1[i]) << "shared block " << i;
    EXPECT_NE(table2[3], table1[3]);
    EXPECT_EQ(kv_->pool().block(table1[0]).refCount, 2);
    EXPECT_EQ(kv_->numFreeBlocks(), freeBefore - 1);
    compute(2, t, 48, 50);  // the fake backend checks positions 0..47 are present through table2
}

TEST_F(KvCacheManagerTest, AllocationThatCannotBeSatisfiedChangesNothing) {
    init(4, 2);
    const auto t = tokens(40, 1);  // 3 blocks
    run(1, t);
    const uint32_t freeBefore = kv_->numFreeBlocks();
    EXPECT_EQ(freeBefore, 1u);
    EXPECT_FALSE(kv_->canAllocate(2, 0, 17));
    EXPECT_FALSE(kv_->allocateSlots(2, 0, 17));
    EXPECT_FALSE(kv_->holdsBlocks(2));
    EXPECT_EQ(kv_->numFreeBlocks(), freeBefore);
    EXPECT_EQ(kv_->counters().evictedToRam, 0u);
    // Growing sequence 1 past the pool fails the same way.
    EXPECT_FALSE(kv_->allocateSlots(1, 40, 30));
    EXPECT_EQ(kv_->blockTable(1).size(), 3u);
    EXPECT_TRUE(kv_->allocateSlots(1, 40, 8));
    EXPECT_EQ(kv_->blockTable(1).size(), 3u) << "48 tokens still fit in 3 blocks";
}

TEST_F(KvCacheManagerTest, EvictedBlocksComeBackFromRamWithIdenticalBytes) {
    init(4, 8);
    const auto t = tokens(33, 2);  // 2 full blocks + 1
    const auto h = run(1, t);
    std::vector<std::vector<uint8_t>> original;
    for (int i = 0; i < 2; ++i) original.push_back(bytesOf(kv_->blockTable(1)[i]));
    kv_->freeSequence(1);
    // Another sequence takes the whole pool: the two cached blocks are evicted to RAM.
    const uint64_t callsBefore = be_.copyOutCalls();
    run(2, tokens(64, 9));
    EXPECT_EQ(kv_->pool().numCached(), 4u);
    EXPECT_EQ(kv_->counters().evictedToRam, 2u);
    EXPECT_EQ(be_.copyOutCalls() - callsBefore, 1u) << "both evictions in one backend call";
    kv_->freeSequence(2);

    PrefixLookup hit = kv_->lookup(h, 2);
    ASSERT_EQ(hit.blocks.size(), 2u);
    EXPECT_EQ(hit.count(CacheTier::Ram), 2);
    const uint64_t callsBeforeIn = be_.copyInCalls(), blocksBeforeIn = be_.copiesIn();
    auto c = kv_->allocateSlots(3, hit.numTokens(), 1, &hit);
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, 32);
    EXPECT_EQ(kv_->counters().copiedInFromRam, 2u);
    EXPECT_EQ(be_.copiesIn() - blocksBeforeIn, 2u);
    EXPECT_EQ(be_.copyInCalls() - callsBeforeIn, 1u) << "both copy-ins in one backend call";
    for (int i = 0; i < 2; ++i) EXPECT_EQ(bytesOf(kv_->blockTable(3)[i]), original[i]) << i;
    compute(3, t, 32, 33);
    // Copied-in blocks are device-cached again.
    kv_->freeSequence(3);
    EXPECT_EQ(kv_->lookup(h, 2).count(CacheTier::Device), 2);
}

TEST_F(KvCacheManagerTest, DiskTierBelowRamAndACorruptFileMeansRecomputeFromThere) {
    init(4, 0, /*disk=*/true);
    const auto t = tokens(49, 3);  // 3 full blocks
    const auto h = run(1, t);
    kv_->freeSequence(1);
    run(2, tokens(64, 8));  // evicts all three to disk (no RAM tier)
    kv_->freeSequence(2);
    EXPECT_EQ(kv_->counters().evictedToDisk, 3u);
    ASSERT_EQ(kv_->disk()->numBlocks(), 3u);

    // Corrupt the middle block's file.
    {
        const fs::path f = fs::path(kv_->disk()->directory()) / (h[1].hex() + ".kvb");
        std::fstream s(f, std::ios::in | std::ios::out | std::ios::binary);
        s.seekp(DiskBlockCache::kHeaderBytes + 3);
        s.put('\x7f');
    }
    PrefixLookup hit = kv_->lookup(h, 3);
    ASSERT_EQ(hit.blocks.size(), 3u);
    EXPECT_EQ(hit.count(CacheTier::Disk), 3);
    auto c = kv_->allocateSlots(3, hit.numTokens(), 1, &hit);
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, 16) << "block 0 loaded; block 1 failed its checksum, so recompute from token 16";
    EXPECT_EQ(kv_->counters().diskReadFailures, 1u);
    EXPECT_EQ(kv_->blockTable(3).size(), 4u) << "the table still covers 48 + 1 tokens";
    EXPECT_FALSE(kv_->disk()->contains(h[1]));
    compute(3, t, 16, 49);
    kv_->cacheComputedBlocks(3, h, 49);
    EXPECT_EQ(kv_->lookup(h, 3).count(CacheTier::Device), 3);
}

TEST_F(KvCacheManagerTest, SwappedTailBlockRestoresAPartialBlock) {
    init(4, 4);
    const auto t = tokens(21, 4);  // 1 full block + 5
    const auto h = run(1, t);
    const auto tailBytes = bytesOf(kv_->blockTable(1)[1]);
    auto slot = kv_->swapOutTail(1, 21);
    ASSERT_TRUE(slot);
    EXPECT_EQ(kv_->ram()->numPrivate(), 1u);
    EXPECT_FALSE(kv_->swapOutTail(1, 16)) << "no partial block at a block boundary";
    kv_->freeSequence(1);
    run(2, tokens(64, 5));  // evict everything from the device
    kv_->freeSequence(2);

    // Resume with one more token known (22): 16 from RAM + 5 from the tail slot.
    PrefixLookup hit = kv_->lookup(h, (22 - 1) / kBlockSize, *slot, 1, 5);
    EXPECT_EQ(hit.numTokens(), 21);
    auto c = kv_->allocateSlots(1, hit.numTokens(), 1, &hit);
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, 21);
    EXPECT_EQ(kv_->ram()->numPrivate(), 0u) << "the slot was consumed";
    EXPECT_EQ(bytesOf(kv_->blockTable(1)[1]), tailBytes);
    auto t2 = t;
    t2.push_back(7);
    compute(1, t2, 21, 22);
}

TEST_F(KvCacheManagerTest, PersistWritesDeviceAndRamBlocksToDisk) {
    init(4, 2, /*disk=*/true);
    run(1, tokens(48, 6));
    kv_->freeSequence(1);
    run(2, tokens(32, 7));  // two of sequence 1's blocks go to RAM
    kv_->persistToDisk();
    EXPECT_EQ(kv_->disk()->numBlocks(), 5u);
}

}  // namespace
}  // namespace hearth
