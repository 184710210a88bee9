// The RAM tier (HostBlockCache) and the disk tier (DiskBlockCache).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "kv/DiskBlockCache.h"
#include "kv/HostBlockCache.h"

namespace hearth {
namespace {
namespace fs = std::filesystem;

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed * 31 + i * 7);
    return v;
}

TEST(HostBlockCache, EvictsLeastRecentlyUsedToTheSpillAndSkipsPinned) {
    HostBlockCache c(3 * 64 + 10, 64);  // 3 slots
    EXPECT_EQ(c.capacity(), 3u);
    std::vector<Hash128> spilled;
    c.setSpill([&](const Hash128& h, const uint8_t* data) {
        spilled.push_back(h);
        EXPECT_EQ(data[0], static_cast<uint8_t>(h.lo));
    });
    for (uint64_t i = 1; i <= 3; ++i) {
        auto ins = c.insert(Hash128{0, i});
        ASSERT_TRUE(ins.slot);
        std::memset(ins.slot, static_cast<int>(i), 64);
    }
    EXPECT_TRUE(c.insert(Hash128{0, 2}).present);  // also makes 2 most recently used
    c.touch(Hash128{0, 1});                        // order now 3, 2, 1
    c.pin(Hash128{0, 3});
    auto ins = c.insert(Hash128{0, 4});
    ASSERT_TRUE(ins.slot);
    std::memset(ins.slot, 4, 64);
    ASSERT_EQ(spilled.size(), 1u);
    EXPECT_EQ(spilled[0], (Hash128{0, 2})) << "3 is pinned, so the next LRU entry goes";
    EXPECT_TRUE(c.contains(Hash128{0, 3}));
    EXPECT_EQ(c.find(Hash128{0, 4})[10], 4);
    c.unpin(Hash128{0, 3});
    EXPECT_EQ(c.roomForPrivate(), 3u);
    auto slot = c.takePrivateSlot();
    ASSERT_TRUE(slot);
    EXPECT_EQ(spilled.back(), (Hash128{0, 3}));
    EXPECT_EQ(c.numUsed(), 3u);
    EXPECT_EQ(c.numPrivate(), 1u);
    c.releasePrivateSlot(*slot);
    EXPECT_EQ(c.numUsed(), 2u);
}

TEST(HostBlockCache, NoRoomWhenEverythingIsPinned) {
    HostBlockCache c(64, 64);
    ASSERT_TRUE(c.insert(Hash128{1, 1}).slot);
    c.pin(Hash128{1, 1});
    auto ins = c.insert(Hash128{2, 2});
    EXPECT_FALSE(ins.slot);
    EXPECT_FALSE(ins.present);
    EXPECT_EQ(c.roomForPrivate(), 0u);
    EXPECT_FALSE(c.takePrivateSlot());
}

class DiskBlockCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("hearth-disk-test-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::unique_ptr<DiskBlockCache> open(Hash128 fp = {5, 6}, uint64_t cap = 1 << 20) {
        auto c = DiskBlockCache::open(dir_.string(), fp, cap, kBytes);
        EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().toString());
        return c.ok() ? std::move(*c) : nullptr;
    }
    std::string fileOf(Hash128 fp, Hash128 h) { return (dir_ / fp.hex() / (h.hex() + ".kvb")).string(); }
    static constexpr uint64_t kBytes = 256;
    fs::path dir_;
};

TEST_F(DiskBlockCacheTest, SurvivesReopenAndVerifiesContents) {
    const auto data = pattern(kBytes, 1);
    {
        auto c = open();
        ASSERT_TRUE(c->write(Hash128{1, 1}, data.data()).ok());
        ASSERT_TRUE(c->write(Hash128{1, 2}, pattern(kBytes, 2).data()).ok());
        EXPECT_EQ(c->numBlocks(), 2u);
        EXPECT_EQ(c->bytesUsed(), 2 * (kBytes + DiskBlockCache::kHeaderBytes));
    }
    auto c = open();
    EXPECT_EQ(c->numBlocks(), 2u);
    EXPECT_TRUE(c->contains(Hash128{1, 1}));
    std::vector<uint8_t> back(kBytes);
    ASSERT_TRUE(c->read(Hash128{1, 1}, back.data()).ok());
    EXPECT_EQ(back, data);
    // Another model's fingerprint sees none of it.
    auto other = open(Hash128{5, 7});
    EXPECT_EQ(other->numBlocks(), 0u);
}

TEST_F(DiskBlockCacheTest, CorruptPayloadIsDetectedDroppedAndNotFatal) {
    const Hash128 fp{5, 6}, h{9, 9};
    {
        auto c = open(fp);
        ASSERT_TRUE(c->write(h, pattern(kBytes, 3).data()).ok());
    }
    {  // flip one payload byte
        std::fstream f(fileOf(fp, h), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(DiskBlockCache::kHeaderBytes + 100);
        f.put('\x55');
    }
    auto c = open(fp);
    ASSERT_TRUE(c->contains(h)) << "the header is intact, so it is indexed";
    std::vector<uint8_t> back(kBytes);
    Status s = c->read(h, back.data());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Corrupt);
    EXPECT_FALSE(c->contains(h));
    EXPECT_FALSE(fs::exists(fileOf(fp, h)));
    EXPECT_EQ(c->numRejected(), 1u);
}

TEST_F(DiskBlockCacheTest, TruncatedMisnamedAndForeignHeaderFilesAreRejectedAtOpen) {
    const Hash128 fp{5, 6};
    {
        auto c = open(fp);
        ASSERT_TRUE(c->write(Hash128{1, 1}, pattern(kBytes, 1).data()).ok());
        ASSERT_TRUE(c->write(Hash128{1, 2}, pattern(kBytes, 2).data()).ok());
        ASSERT_TRUE(c->write(Hash128{1, 3}, pattern(kBytes, 3).data()).ok());
    }
    fs::resize_file(fileOf(fp, Hash128{1, 1}), 100);                          // truncated
    fs::rename(fileOf(fp, Hash128{1, 2}), fileOf(fp, Hash128{1, 4}));          // name != header hash
    {
        std::ofstream junk(dir_ / fp.hex() / "partial.kvb.tmp");             // interrupted write
        junk << "x";
    }
    {
        std::ofstream unrelated(dir_ / fp.hex() / "README");                 // not ours: kept
        unrelated << "x";
    }
    auto c = open(fp);
    EXPECT_EQ(c->numBlocks(), 1u);
    EXPECT_TRUE(c->contains(Hash128{1, 3}));
    EXPECT_EQ(c->numRejected(), 2u);
    EXPECT_FALSE(fs::exists(dir_ / fp.hex() / "partial.kvb.tmp"));
    EXPECT_TRUE(fs::exists(dir_ / fp.hex() / "README"));
}

TEST_F(DiskBlockCacheTest, CapEvictsLeastRecentlyUsed) {
    const uint64_t file = kBytes + DiskBlockCache::kHeaderBytes;
    auto c = open({5, 6}, 3 * file);
    for (uint64_t i = 1; i <= 3; ++i) ASSERT_TRUE(c->write(Hash128{0, i}, pattern(kBytes, uint8_t(i)).data()).ok());
    std::vector<uint8_t> back(kBytes);
    ASSERT_TRUE(c->read(Hash128{0, 1}, back.data()).ok());  // 1 becomes most recent
    ASSERT_TRUE(c->write(Hash128{0, 4}, pattern(kBytes, 4).data()).ok());
    EXPECT_EQ(c->numBlocks(), 3u);
    EXPECT_LE(c->bytesUsed(), 3 * file);
    EXPECT_FALSE(c->contains(Hash128{0, 2}));
    EXPECT_TRUE(c->contains(Hash128{0, 1}));
}

TEST_F(DiskBlockCacheTest, UnusableDirectoryIsAClearError) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "file") << "x";
    auto c = DiskBlockCache::open((dir_ / "file").string(), Hash128{1, 1}, 1 << 20, kBytes);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().code, ErrorCode::IoError);
    EXPECT_NE(c.error().message.find("cannot create"), std::string::npos);
}

}  // namespace
}  // namespace hearth
