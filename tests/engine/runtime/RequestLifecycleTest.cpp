// One request's life through the EngineCore: text deltas and stop strings, stop tokens, limits,
// refusals, cancellation, backend failures and the stats snapshot. Also the StopStringMatcher and
// metrics units.
#include <gtest/gtest.h>

#include "CoreHarness.h"
#include "runtime/EngineMetrics.h"
#include "runtime/StopStringMatcher.h"

namespace hearth::test {
namespace {

TEST(StopStringMatcher, HoldsBackPossibleStartsAndCutsAtTheStop) {
    StopStringMatcher m({"END", "xyz"});
    EXPECT_EQ(m.push("hello E"), "hello ");
    EXPECT_EQ(m.held(), "E");
    EXPECT_EQ(m.push("N"), "");
    EXPECT_EQ(m.push("X more"), "ENX more") << "not a stop after all";
    EXPECT_EQ(m.push(" x"), " ");
    EXPECT_EQ(m.push("yzzz"), "");
    EXPECT_TRUE(m.matched());
    EXPECT_EQ(m.push("after"), "");
    EXPECT_EQ(m.flush(), "");
}

TEST(StopStringMatcher, EarliestStopWinsAndFlushReleasesTheRest) {
    StopStringMatcher a({"bc", "abcd"});
    EXPECT_EQ(a.push("xabcd"), "x") << "abcd starts first";
    StopStringMatcher b({"stop"});
    EXPECT_EQ(b.push("so st"), "so ");
    EXPECT_EQ(b.flush(), "st");
    StopStringMatcher none({});
    EXPECT_EQ(none.push("anything"), "anything");
}

TEST(EngineMetrics, NearestRankPercentiles) {
    std::vector<double> v;
    for (int i = 1; i <= 100; ++i) v.push_back(i);
    EXPECT_DOUBLE_EQ(EngineMetrics::percentile(v, 0.5), 50);
    EXPECT_DOUBLE_EQ(EngineMetrics::percentile(v, 0.95), 95);
    EXPECT_DOUBLE_EQ(EngineMetrics::percentile({7}, 0.95), 7);
    EXPECT_DOUBLE_EQ(EngineMetrics::percentile({}, 0.5), 0);
}

EngineConfig cfg() {
    EngineConfig c;
    c.maxSeqs = 4;
    c.maxBatchTokens = 32;
    c.prefillChunk = 16;
    return c;
}

TEST(Lifecycle, TextDeltasAreValidUtf8AndStopStringsAreCutOut) {
    auto tok = std::make_shared<FakeTokenizer>();
    std::string full;
    std::vector<TokenId> fullTokens;
    {
        CoreHarness h(cfg(), 64, tok);
        auto s = h.submit(greedy(makePrompt(20, 1), 60));
        h.runUntilIdle();
        full = s->text;
        fullTokens = s->tokens;
        for (const auto& d : s->deltas) EXPECT_TRUE(validUtf8(d));
        EXPECT_LE(s->events, 60) << "at most one event per step";
    }
    ASSERT_GE(full.size(), 30u);
    const std::string stop = full.substr(20, 3);
    const size_t cut = full.find(stop);
    CoreHarness h(cfg(), 64, tok);
    auto r = greedy(makePrompt(20, 1), 60);
    r.stop = {stop, "never-appears"};
    auto s = h.submit(r);
    h.runUntilIdle();
    ASSERT_TRUE(s->finished);
    EXPECT_EQ(s->reason, FinishReason::Stop);
    EXPECT_EQ(s->text, full.substr(0, cut));
    for (const auto& d : s->deltas) EXPECT_EQ(d.find(stop), std::string::npos);
    EXPECT_LT(s->usage.completionTokens, 60);
    EXPECT_EQ(s->tokens, std::vector<TokenId>(fullTokens.begin(), fullTokens.begin() + s->tokens.size()));
}

TEST(Lifecycle, PromptTextIsTokenizedWithTheModelsRules) {
    auto tok = std::make_shared<FakeTokenizer>();
    CoreHarness h(cfg(), 64, tok);
    GenerationRequest r;
    r.promptText = "Once upon a time";
    r.maxTokens = 5;
    r.sampling.temperature = 0;
    auto s = h.submit(r);
    h.runUntilIdle();
    EXPECT_EQ(s->usage.promptTokens, 16);
    EXPECT_EQ(s->tokens, h.backend->reference(tok->encode("Once upon a time", {}), 5));
}

TEST(Lifecycle, StopTokensEndTheRequestAndAreNotShown) {
    CoreHarness h(cfg());
    const auto prompt = makePrompt(10, 2);
    const auto ref = h.backend->reference(prompt, 8);
    auto r = greedy(prompt, 8);
    r.stopTokens = {ref[4]};
    // Make sure the stop token does not also occur earlier.
    for (int i = 0; i < 4; ++i)
        if (ref[i] == ref[4]) GTEST_SKIP() << "reference repeats its token";
    auto s = h.submit(r);
    h.runUntilIdle();
    EXPECT_EQ(s->reason, FinishReason::Stop);
    EXPECT_EQ(s->tokens, std::vector<TokenId>(ref.begin(), ref.begin() + 4));
    EXPECT_EQ(s->usage.completionTokens, 5) << "the stop token was generated";
}

// ignore_eos bans the end-of-generation tokens, on the host and on the device alike: the ban
// travels with the row to the device sampler, so such requests still sample there (a benchmark's
// usual setting must not cost a logits copy).
TEST(Lifecycle, EndOfGenerationUnlessIgnoreEos) {
    CoreHarness probe(cfg());
    const auto prompt = makePrompt(12, 3);
    const auto ref = probe.backend->reference(prompt, 6);
    auto tok = std::make_shared<FakeTokenizer>(/*eos=*/ref[2]);
    for (const bool device : {false, true}) {
        SCOPED_TRACE(device ? "device sampling" : "host sampling");
        CoreHarness h(cfg(), 64, tok);
        h.backend->setDeviceSampling(device);
        auto a = h.submit(greedy(prompt, 6));
        auto r = greedy(prompt, 6);
        r.ignoreEos = true;
        auto b = h.submit(r);
        h.runUntilIdle();
        EXPECT_EQ(a->reason, FinishReason::Stop);
        EXPECT_EQ(a->tokens.size(), 2u);
        EXPECT_EQ(b->reason, FinishReason::Length);
        EXPECT_EQ(b->tokens, h.backend->reference(prompt, 6, {ref[2]})) << "EOS is banned, not just ignored";
        if (device) EXPECT_GE(h.backend->deviceSampledSteps(), 5u);
    }
}

TEST(Lifecycle, RequestsThatCanNeverFitFailAtOnce) {
    EngineConfig c = cfg();
    c.contextLength = 100;
    CoreHarness h(c, /*kvBlocks=*/4);  // 64 token slots: smaller than the context
    auto tooLong = h.submit(greedy(makePrompt(65, 1), 5));
    ASSERT_TRUE(tooLong->failed) << "refused in add(), before any step";
    EXPECT_EQ(tooLong->error.code, ErrorCode::ContextOverflow);
    EXPECT_NE(tooLong->error.message.find("65 tokens"), std::string::npos) << tooLong->error.message;
    auto empty = h.submit(greedy({}, 5));
    EXPECT_TRUE(empty->failed);
    auto badToken = h.submit(greedy({1, 2, 999}, 5));
    EXPECT_TRUE(badToken->failed);
    EXPECT_EQ(badToken->error.code, ErrorCode::InvalidArgument);
    GenerationRequest text;
    text.promptText = "no tokenizer here";
    EXPECT_TRUE(h.submit(text)->failed);
    EXPECT_FALSE(h.core->hasWork());
    // At the context end a request stops with "length".
    auto fits = h.submit(greedy(makePrompt(60, 1), 100));
    h.runUntilIdle();
    EXPECT_EQ(fits->reason, FinishReason::Length);
    EXPECT_EQ(fits->usage.completionTokens, 4) << "64 token slots in all";
    EXPECT_EQ(h.core->contextLength(), 64);
}

TEST(Lifecycle, ZeroMaxTokensFinishesWithoutRunning) {
    CoreHarness h(cfg());
    auto s = h.submit(greedy(makePrompt(10, 1), 0));
    EXPECT_TRUE(s->finished);
    EXPECT_EQ(s->reason, FinishReason::Length);
    EXPECT_EQ(s->usage.promptTokens, 10);
    EXPECT_FALSE(h.core->hasWork());
}

TEST(Lifecycle, CancelMidStreamFinishesOnceAndFreesBlocks) {
    CoreHarness h(cfg());
    RequestId id = 0;
    auto s = h.submit(greedy(makePrompt(40, 4), 1000), &id);
    auto other = h.submit(greedy(makePrompt(30, 5), 20));
    for (int i = 0; i < 8; ++i) ASSERT_TRUE(h.core->step().ok());
    EXPECT_FALSE(s->tokens.empty());
    h.core->cancel(id);
    EXPECT_EQ(s->finishes, 1);
    EXPECT_EQ(s->reason, FinishReason::Cancelled);
    const int eventsAtCancel = s->events;
    h.core->cancel(id);  // twice, and an unknown id: harmless
    h.core->cancel(12345);
    h.runUntilIdle();
    EXPECT_EQ(s->events, eventsAtCancel);
    EXPECT_EQ(s->callsAfterFinish, 0);
    EXPECT_TRUE(other->finished);
    EXPECT_EQ(other->tokens, h.backend->reference(makePrompt(30, 5), 20));
    EXPECT_EQ(h.core->stats().kvBlocksUsed, 0u);
}

TEST(Lifecycle, BackendFailureFailsThatStepsRequestsOnly) {
    CoreHarness h(cfg());
    auto a = h.submit(greedy(makePrompt(10, 6), 5));
    h.backend->failNextForward();
    EXPECT_FALSE(h.core->step().ok());
    EXPECT_TRUE(a->failed);
    EXPECT_EQ(a->finishes, 1);
    auto b = h.submit(greedy(makePrompt(10, 6), 5));
    h.runUntilIdle();
    EXPECT_EQ(b->tokens, h.backend->reference(makePrompt(10, 6), 5));
    EXPECT_EQ(h.core->stats().kvBlocksUsed, 0u);
}

TEST(Lifecycle, ShutdownCancelsWhatIsLeft) {
    std::shared_ptr<RecordingSink> a, b;
    {
        CoreHarness h(cfg());
        a = h.submit(greedy(makePrompt(10, 7), 100));
        b = h.submit(greedy(makePrompt(10, 8), 100));
        ASSERT_TRUE(h.core->step().ok());
    }
    EXPECT_EQ(a->finishes, 1);
    EXPECT_EQ(a->reason, FinishReason::Cancelled);
    EXPECT_EQ(b->finishes, 1);
}

TEST(Lifecycle, SampledRequestsAreReproducibleBySeedAndReportLogprobs) {
    auto run = [](uint64_t seed) {
        CoreHarness h(cfg());
        GenerationRequest r;
        r.promptTokens = makePrompt(10, 9);
        r.maxTokens = 30;
        r.sampling.temperature = 1.0f;
        r.sampling.topK = 0;
        r.sampling.topP = 1.0f;
        r.sampling.minP = 0;
        r.sampling.seed = seed;
        r.sampling.logprobs = 2;
        auto s = h.submit(r);
        h.runUntilIdle();
        EXPECT_EQ(s->logprobRows, 30);
        return s->tokens;
    };
    const auto a = run(1), b = run(1), c = run(2);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(Lifecycle, DeviceSamplingIsUsedWhenEveryRowAllowsIt) {
    CoreHarness h(cfg());
    h.backend->setDeviceSampling(true);
    auto a = h.submit(greedy(makePrompt(10, 11), 12));
    auto b = h.submit(greedy(makePrompt(20, 12), 12));
    h.runUntilIdle();
    EXPECT_EQ(a->tokens, h.backend->reference(makePrompt(10, 11), 12));
    EXPECT_EQ(b->tokens, h.backend->reference(makePrompt(20, 12), 12));
    const uint64_t deviceSteps = h.backend->deviceSampledSteps();
    EXPECT_GE(deviceSteps, 12u);
    // A request that wants logprobs needs the logits on the host: its steps sample there.
    auto r = greedy(makePrompt(10, 13), 6);
    r.sampling.logprobs = 1;
    auto c = h.submit(r);
    h.runUntilIdle();
    EXPECT_EQ(h.backend->deviceSampledSteps(), deviceSteps);
    EXPECT_EQ(c->logprobRows, 6);
    EXPECT_EQ(c->tokens, h.backend->reference(makePrompt(10, 13), 6));
}

TEST(Lifecycle, StatsSnapshot) {
    CoreHarness h(cfg());
    for (int i = 0; i < 3; ++i) h.submit(greedy(makePrompt(40, 10), 10));
    ASSERT_TRUE(h.core->step().ok());
    EngineStats mid = h.core->stats();
    EXPECT_EQ(mid.running + mid.waiting, 3);
    EXPECT_GT(mid.kvBlocksUsed, 0u);
    h.runUntilIdle();
    const EngineStats s = h.core->stats();
    EXPECT_EQ(s.running, 0);
    EXPECT_EQ(s.waiting, 0);
    EXPECT_EQ(s.kvBlocksTotal, 64u);
    EXPECT_EQ(s.totalRequests, 3u);
    EXPECT_EQ(s.totalGeneratedTokens, 30u);
    EXPECT_EQ(s.totalPromptTokens, 120u);
    EXPECT_GT(s.prefixHitTokensDevice, 0u) << "identical prompts share blocks";
    EXPECT_GT(s.ttftP95Ms, 0.0);
    EXPECT_GE(s.ttftP95Ms, s.ttftP50Ms);
    EXPECT_GT(s.decodeTokPerSec, 0.0);
    EXPECT_GT(s.steps, 9u);
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.devices[0].name, "Fake");
}

}  // namespace
}  // namespace hearth::test
