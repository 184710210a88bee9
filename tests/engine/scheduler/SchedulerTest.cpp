// Scheduling policy: the step budget and prefill chunks, decodes before prefills, fairness across
// users (a flood of requests or one huge prompt cannot starve another user), priorities, and
// refusal of what can never fit.
#include <gtest/gtest.h>

#include "../runtime/CoreHarness.h"
#include "scheduler/Scheduler.h"

namespace hearth::test {
namespace {

EngineConfig config(int maxSeqs, int budget, int chunk) {
    EngineConfig c;
    c.maxSeqs = maxSeqs;
    c.maxBatchTokens = budget;
    c.prefillChunk = chunk;
    return c;
}

// Steps until sink has its first token; returns the number of steps taken.
int stepsUntilFirstToken(CoreHarness& h, const RecordingSink& sink, int limit = 1000) {
    for (int i = 1; i <= limit; ++i) {
        EXPECT_TRUE(h.core->step().ok());
        if (!sink.tokens.empty()) return i;
    }
    return limit + 1;
}

TEST(Scheduler, BudgetChunksAndMaxSeqsHoldEveryStep) {
    CoreHarness h(config(3, 20, 6), 256);
    std::vector<std::shared_ptr<RecordingSink>> sinks;
    for (int i = 0; i < 7; ++i) sinks.push_back(h.submit(greedy(makePrompt(25 + i * 9, i), 12)));
    h.runUntilIdle();
    EXPECT_LE(h.backend->maxBatchTokens(), 20u);
    EXPECT_LE(h.backend->maxBatchSeqs(), 3u);
    EXPECT_LE(h.backend->maxSliceTokens(), 6u);
    EXPECT_EQ(h.backend->maxSliceTokens(), 6u) << "prefills do use whole chunks";
    for (int i = 0; i < 7; ++i) EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(25 + i * 9, i), 12)) << i;
}

TEST(Scheduler, RunningDecodesAreNotStalledByALongPrefill) {
    CoreHarness h(config(8, 40, 32), 512);
    std::vector<std::shared_ptr<RecordingSink>> decoders;
    for (int i = 0; i < 4; ++i) decoders.push_back(h.submit(greedy(makePrompt(8, i), 200, "u" + std::to_string(i))));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.core->step().ok());
    std::vector<size_t> before;
    for (auto& d : decoders) before.push_back(d->tokens.size());
    auto big = h.submit(greedy(makePrompt(3000, 9), 1, "big"));
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(h.core->step().ok());
    for (size_t i = 0; i < decoders.size(); ++i) EXPECT_EQ(decoders[i]->tokens.size(), before[i] + 20) << i;
    EXPECT_TRUE(big->tokens.empty()) << "the long prompt is still being prefilled, one 32-token chunk per step";
}

TEST(Scheduler, AFloodingUserCannotStarveAnotherUsersChat) {
    CoreHarness h(config(8, 64, 32), 1024);
    for (int i = 0; i < 50; ++i) h.submit(greedy(makePrompt(64, i), 100, "alice"));
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(h.core->step().ok());
    EXPECT_EQ(h.core->stats().running, 8);
    auto bob = h.submit(greedy(makePrompt(20, 99), 5, "bob"));
    const int steps = stepsUntilFirstToken(h, *bob);
    EXPECT_LE(steps, 2) << "bob's chat starts at once, not after alice's 50 requests";
    EXPECT_GE(h.core->stats().preemptions, 1u) << "alice gave up a slot";
    h.runUntilIdle();
    EXPECT_EQ(bob->tokens, h.backend->reference(makePrompt(20, 99), 5));
}

TEST(Scheduler, OneHugePromptCannotStarveAnotherUsersChat) {
    CoreHarness h(config(8, 64, 64), 1024);
    auto huge = h.submit(greedy(makePrompt(4000, 1), 3, "alice"));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.core->step().ok());
    auto bob = h.submit(greedy(makePrompt(20, 2), 5, "bob"));
    EXPECT_LE(stepsUntilFirstToken(h, *bob), 2);
    EXPECT_TRUE(huge->tokens.empty());
    h.runUntilIdle();
    EXPECT_EQ(huge->tokens, h.backend->reference(makePrompt(4000, 1), 3));
    EXPECT_EQ(bob->tokens, h.backend->reference(makePrompt(20, 2), 5));
}

TEST(Scheduler, RoundRobinAdmissionAcrossUsers) {
    // One slot: users take turns rather than first-come-first-served.
    CoreHarness h(config(1, 64, 64), 256);
    std::vector<std::pair<std::string, std::shared_ptr<RecordingSink>>> order;
    for (int i = 0; i < 3; ++i) order.push_back({"a", h.submit(greedy(makePrompt(10, i), 2, "a"))});
    order.push_back({"b", h.submit(greedy(makePrompt(10, 7), 2, "b"))});
    order.push_back({"c", h.submit(greedy(makePrompt(10, 8), 2, "c"))});
    std::vector<std::string> finishedOrder;
    std::vector<bool> seen(order.size(), false);
    while (h.core->hasWork()) {
        ASSERT_TRUE(h.core->step().ok());
        for (size_t i = 0; i < order.size(); ++i)
            if (!seen[i] && order[i].second->finished) seen[i] = true, finishedOrder.push_back(order[i].first);
    }
    EXPECT_EQ(finishedOrder, (std::vector<std::string>{"a", "b", "c", "a", "a"}));
}

TEST(Scheduler, HigherPriorityOverridesFairnessAndPreempts) {
    CoreHarness h(config(4, 64, 32), 1024);
    for (int i = 0; i < 10; ++i) h.submit(greedy(makePrompt(30, i), 100, "alice"));
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(h.core->step().ok());
    auto r = greedy(makePrompt(30, 50), 5, "alice");
    r.priority = 10;
    auto urgent = h.submit(r);
    EXPECT_LE(stepsUntilFirstToken(h, *urgent), 2);
    h.runUntilIdle();
    EXPECT_EQ(urgent->tokens, h.backend->reference(makePrompt(30, 50), 5));
}

TEST(Scheduler, PoolSmallerThanAllWorkStillFinishesEverything) {
    // Many users, a pool that holds two sequences: preemption and fairness together.
    CoreHarness h(config(6, 48, 16), 12);
    std::vector<std::shared_ptr<RecordingSink>> sinks;
    for (int i = 0; i < 9; ++i) sinks.push_back(h.submit(greedy(makePrompt(40, i), 50, "u" + std::to_string(i % 3))));
    h.runUntilIdle(20000);
    for (int i = 0; i < 9; ++i) EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(40, i), 50)) << i;
    EXPECT_GT(h.core->stats().preemptions, 0u);
}

}  // namespace
}  // namespace hearth::test
