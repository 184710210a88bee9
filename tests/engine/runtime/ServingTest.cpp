// The serving core end to end over the fake backend: batch invariance with chunked prefill,
// prefix reuse on the device, through the RAM tier and from the disk tier after a restart, and
// preemption under a tiny block pool.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "CoreHarness.h"
#include "kv/BlockHasher.h"

namespace hearth::test {
namespace {
namespace fs = std::filesystem;

EngineConfig smallSteps() {
    EngineConfig c;
    c.maxSeqs = 8;
    c.maxBatchTokens = 24;
    c.prefillChunk = 8;
    return c;
}

TEST(Serving, SingleGreedyRequestMatchesTheReference) {
    CoreHarness h(smallSteps());
    const auto prompt = makePrompt(37, 1);
    auto sink = h.submit(greedy(prompt, 12));
    h.runUntilIdle();
    ASSERT_TRUE(sink->finished);
    EXPECT_EQ(sink->reason, FinishReason::Length);
    EXPECT_EQ(sink->tokens, h.backend->reference(prompt, 12));
    EXPECT_EQ(sink->usage.promptTokens, 37);
    EXPECT_EQ(sink->usage.completionTokens, 12);
    EXPECT_EQ(sink->usage.computedPromptTokens, 37);
    EXPECT_EQ(h.backend->tokensComputed(), 37u + 11u) << "prompt once, then one token per decode step";
}

TEST(Serving, ConcurrentRequestsArrivingAtDifferentTimesMatchEachAlone) {
    CoreHarness h(smallSteps());
    struct Case {
        int promptLen, n, arriveAtStep;
    };
    const std::vector<Case> cases = {{5, 20, 0}, {70, 9, 0}, {17, 15, 2}, {33, 1, 3}, {48, 25, 5}, {1, 30, 9}, {90, 6, 9}};
    std::vector<std::shared_ptr<RecordingSink>> sinks(cases.size());
    int step = 0;
    size_t submitted = 0;
    while (submitted < cases.size() || h.core->hasWork()) {
        for (size_t i = 0; i < cases.size(); ++i)
            if (!sinks[i] && cases[i].arriveAtStep <= step)
                sinks[i] = h.submit(greedy(makePrompt(cases[i].promptLen, int(i)), cases[i].n)), ++submitted;
        ASSERT_TRUE(h.core->step().ok());
        ASSERT_LT(++step, 10000);
    }
    for (size_t i = 0; i < cases.size(); ++i) {
        ASSERT_TRUE(sinks[i]->finished) << i;
        EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(cases[i].promptLen, int(i)), cases[i].n)) << i;
    }
    EXPECT_GT(h.backend->maxBatchSeqs(), 3u) << "requests really were batched together";
    EXPECT_LE(h.backend->maxBatchTokens(), 24u) << "the step budget holds";
}

TEST(Serving, SecondRequestWithTheSamePrefixComputesOnlyTheNewTokens) {
    CoreHarness h(smallSteps());
    const auto doc = makePrompt(100, 7);
    auto a = h.submit(greedy(doc, 4));
    h.runUntilIdle();
    ASSERT_TRUE(a->finished);

    auto prompt = doc;
    const auto extra = makePrompt(20, 8);
    prompt.insert(prompt.end(), extra.begin(), extra.end());
    const uint64_t before = h.backend->tokensComputed();
    auto b = h.submit(greedy(prompt, 6));
    h.runUntilIdle();
    ASSERT_TRUE(b->finished);
    EXPECT_EQ(b->usage.cachedPromptTokens, 96) << "6 full blocks of the shared 100 tokens";
    EXPECT_EQ(b->usage.computedPromptTokens, 120 - 96);
    EXPECT_EQ(h.backend->tokensComputed() - before, uint64_t(120 - 96 + 5));
    EXPECT_EQ(b->tokens, h.backend->reference(prompt, 6));
    const EngineStats s = h.core->stats();
    EXPECT_EQ(s.prefixHitTokensDevice, 96u);
    EXPECT_EQ(s.prefixQueryTokens, 220u);

    // The very same prompt again: everything but the last token is reused.
    auto c = h.submit(greedy(prompt, 6));
    h.runUntilIdle();
    EXPECT_EQ(c->usage.computedPromptTokens, 120 - 112);
    EXPECT_EQ(c->tokens, b->tokens);
}

TEST(Serving, CacheSaltsDoNotShare) {
    CoreHarness h(smallSteps());
    const auto doc = makePrompt(64, 3);
    auto r = greedy(doc, 2);
    r.cacheSalt = "alice";
    h.submit(r);
    h.runUntilIdle();
    r.cacheSalt = "bob";
    auto b = h.submit(r);
    h.runUntilIdle();
    EXPECT_EQ(b->usage.cachedPromptTokens, 0);
    r.cacheSalt = "alice";
    auto c = h.submit(r);
    h.runUntilIdle();
    EXPECT_EQ(c->usage.cachedPromptTokens, 48);
    EXPECT_EQ(c->tokens, b->tokens);
}

TEST(Serving, PrefixComesBackFromRamAfterForcedEviction) {
    EngineConfig cfg = smallSteps();
    cfg.ramCacheBytes = 64 * 256;  // 64 blocks of the fake's 256 bytes
    FakeBackend::hostLog.clear();
    auto harness = std::make_unique<CoreHarness>(cfg, /*kvBlocks=*/12);
    CoreHarness& h = *harness;
    // The RAM tier's memory is offered to the backend for page-locking, once, whole.
    ASSERT_EQ(FakeBackend::hostLog.size(), 1u);
    EXPECT_NE(FakeBackend::hostLog[0].first, nullptr);
    EXPECT_EQ(FakeBackend::hostLog[0].second, 64u * 256u);
    const auto doc = makePrompt(100, 11);
    auto a = h.submit(greedy(doc, 4));
    h.runUntilIdle();
    // Unrelated work that needs the whole pool: every cached block of `doc` leaves the device.
    for (int i = 0; i < 4; ++i) h.submit(greedy(makePrompt(150, 20 + i), 2));
    h.runUntilIdle();
    std::vector<Hash128> docHashes;
    BlockHasher::extend(docHashes, doc, BlockHasher::extraKey(Hash128{0xfa4e, 1}, ""));
    const PrefixLookup where = h.core->kv().lookup(docHashes, 6);
    ASSERT_EQ(where.blocks.size(), 6u);
    ASSERT_EQ(where.count(CacheTier::Ram), 6) << "the test needs the prefix evicted from the device";

    auto prompt = doc;
    const auto extra = makePrompt(20, 12);
    prompt.insert(prompt.end(), extra.begin(), extra.end());
    const auto before = h.core->stats();
    auto b = h.submit(greedy(prompt, 6));
    h.runUntilIdle();
    const auto after = h.core->stats();
    EXPECT_EQ(b->usage.cachedPromptTokens, 96);
    EXPECT_EQ(b->usage.computedPromptTokens, 24);
    EXPECT_EQ(after.prefixHitTokensRam - before.prefixHitTokensRam, 96u) << "served from RAM, not the device";
    EXPECT_EQ(b->tokens, h.backend->reference(prompt, 6));
    EXPECT_GT(after.ramBlocksUsed, 0u);
    EXPECT_EQ(after.ramBlocksTotal, 64u);
    // ... and taken back before it is freed, while the backend still exists.
    harness.reset();
    ASSERT_EQ(FakeBackend::hostLog.size(), 2u);
    EXPECT_EQ(FakeBackend::hostLog[1], std::make_pair(FakeBackend::hostLog[0].first, uint64_t{0}));
}

class DiskTier : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("hearth-serving-disk-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    EngineConfig config() {
        EngineConfig c = smallSteps();
        c.diskCacheDir = dir_.string();
        c.diskCacheBytes = 1 << 20;
        return c;
    }
    fs::path dir_;
};

TEST_F(DiskTier, LongContextSurvivesAnEngineRestart) {
    const auto doc = makePrompt(200, 5);
    std::vector<TokenId> first;
    {
        CoreHarness h(config());
        auto a = h.submit(greedy(doc, 3));
        h.runUntilIdle();
        first = a->tokens;
    }  // shutdown persists the cache
    auto prompt = doc;
    prompt.push_back(9);
    prompt.push_back(10);
    {
        CoreHarness h(config());
        EXPECT_GE(h.core->stats().diskBlocksUsed, 12u);
        auto b = h.submit(greedy(prompt, 5));
        h.runUntilIdle();
        EXPECT_EQ(b->usage.cachedPromptTokens, 192);
        EXPECT_EQ(b->usage.computedPromptTokens, 202 - 192);
        EXPECT_EQ(h.core->stats().prefixHitTokensDisk, 192u);
        EXPECT_EQ(b->tokens, h.backend->reference(prompt, 5));
    }
    {  // Another model (fingerprint): the files are not used.
        CoreHarness h(config(), 64, nullptr, Hash128{0xbeef, 2});
        auto c = h.submit(greedy(prompt, 5));
        h.runUntilIdle();
        EXPECT_EQ(c->usage.cachedPromptTokens, 0);
        EXPECT_EQ(c->tokens, h.backend->reference(prompt, 5));
    }
}

TEST_F(DiskTier, CorruptFilesAreIgnoredAndTheOutputIsStillRight) {
    const auto doc = makePrompt(100, 6);
    {
        CoreHarness h(config());
        h.submit(greedy(doc, 2));
        h.runUntilIdle();
    }
    // Damage every cache file's payload.
    int damaged = 0;
    for (auto& e : fs::recursive_directory_iterator(dir_)) {
        if (e.path().extension() != ".kvb") continue;
        std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(64 + 17);
        f.put('\x01');
        ++damaged;
    }
    ASSERT_GT(damaged, 0);
    CoreHarness h(config());
    auto b = h.submit(greedy(doc, 8));
    h.runUntilIdle();
    ASSERT_TRUE(b->finished);
    EXPECT_EQ(b->tokens, h.backend->reference(doc, 8));
    EXPECT_EQ(b->usage.computedPromptTokens, 100) << "nothing usable was loaded";
}

class Preemption : public ::testing::TestWithParam<bool> {};

TEST_P(Preemption, EveryRequestCompletesWithIdenticalOutputUnderATinyPool) {
    EngineConfig cfg = smallSteps();
    cfg.maxBatchTokens = 64;
    cfg.prefillChunk = 32;
    if (GetParam()) cfg.ramCacheBytes = 256 * 256;  // with a RAM tier: swap instead of recompute
    CoreHarness h(cfg, /*kvBlocks=*/10);            // 160 token slots for 6 x ~80-token requests
    std::vector<std::shared_ptr<RecordingSink>> sinks;
    for (int i = 0; i < 6; ++i) sinks.push_back(h.submit(greedy(makePrompt(35 + 3 * i, 40 + i), 45)));
    h.runUntilIdle();
    for (int i = 0; i < 6; ++i) {
        ASSERT_TRUE(sinks[i]->finished) << i;
        EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(35 + 3 * i, 40 + i), 45)) << i;
    }
    const EngineStats s = h.core->stats();
    EXPECT_GT(s.preemptions, 0u);
    if (GetParam()) EXPECT_GT(s.prefixHitTokensRam, 0u) << "preempted sequences resumed from RAM";
    EXPECT_EQ(s.kvBlocksUsed, 0u) << "every block was given back";
    if (GetParam()) EXPECT_EQ(h.core->kv().ram()->numPrivate(), 0u) << "every swapped tail was released";
}

INSTANTIATE_TEST_SUITE_P(SwapOrRecompute, Preemption, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "WithRamTier" : "RecomputeOnly"; });

}  // namespace
}  // namespace hearth::test
