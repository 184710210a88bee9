// The engine thread (EngineRuntime): submit/cancel/stats from other threads while it steps, sink
// lifetime, and shutdown with requests in flight. Small on purpose: CI also runs it under
// ThreadSanitizer (-DHEARTH_TSAN=ON).
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <thread>

#include "CoreHarness.h"
#include "runtime/EngineRuntime.h"

namespace hearth::test {
namespace {

struct Engine {
    FakeBackend* backend = nullptr;
    std::unique_ptr<EngineRuntime> runtime;
};

Engine makeEngine(int delayUs, uint32_t kvBlocks = 128) {
    auto be = std::make_unique<FakeBackend>();
    Engine e;
    e.backend = be.get();
    be->setDelayUs(delayUs);
    EngineConfig cfg;
    cfg.maxSeqs = 6;
    cfg.maxBatchTokens = 32;
    cfg.prefillChunk = 16;
    cfg.contextLength = 1024;
    cfg.kvBytes = kvBlocks * be->kvBlockBytes(KvDType::F16);
    EngineCoreOptions o;
    o.fingerprint = Hash128{3, 3};
    auto core = EngineCore::create(std::move(be), nullptr, cfg, o);
    EXPECT_TRUE(core.ok());
    e.runtime = std::make_unique<EngineRuntime>(std::move(*core));
    return e;
}

// A sink that lets a test wait for its first token and for its finish.
struct WaitingSink : RecordingSink {
    std::mutex wm;
    std::condition_variable cv;
    void onTokens(RequestId id, std::span<const TokenId> t, std::string_view d, const std::vector<TokenLogprob>* lp) override {
        RecordingSink::onTokens(id, t, d, lp);
        wake();
    }
    void onFinished(RequestId id, FinishReason r, const Usage& u) override {
        RecordingSink::onFinished(id, r, u);
        wake();
    }
    void onError(RequestId id, const Error& e) override {
        RecordingSink::onError(id, e);
        wake();
    }
    void wake() {
        { std::lock_guard<std::mutex> l(wm); }  // a waiter between its check and its sleep cannot miss this
        cv.notify_all();
    }
    template <class Pred>
    bool waitFor(Pred p) {
        std::unique_lock<std::mutex> l(wm);
        return cv.wait_for(l, std::chrono::seconds(30), [&] { return p(); });
    }
    size_t numTokens() const {
        std::lock_guard<std::mutex> l(m);
        return tokens.size();
    }
};

TEST(EngineThread, ConcurrentSubmittersGetTheirOwnExactOutputs) {
    Engine e = makeEngine(0);
    constexpr int kThreads = 4, kEach = 5;
    std::vector<std::shared_ptr<WaitingSink>> sinks(kThreads * kEach);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) {
                auto s = std::make_shared<WaitingSink>();
                sinks[t * kEach + i] = s;
                e.runtime->submit(greedy(makePrompt(10 + i * 7, t * kEach + i), 12, "user" + std::to_string(t)), s);
            }
        });
    std::atomic<bool> polling{true};
    std::thread poller([&] {
        while (polling) {
            EngineStats st = e.runtime->stats();
            EXPECT_LE(st.running, 6);
            std::this_thread::yield();
        }
    });
    for (auto& th : threads) th.join();
    for (size_t i = 0; i < sinks.size(); ++i) {
        ASSERT_TRUE(sinks[i]->waitFor([&] { return sinks[i]->done(); })) << i;
        EXPECT_EQ(sinks[i]->finishes, 1);
        EXPECT_EQ(sinks[i]->tokens, e.backend->reference(makePrompt(10 + int(i % kEach) * 7, int(i)), 12)) << i;
    }
    polling = false;
    poller.join();
}

TEST(EngineThread, CancelFromAnotherThreadMidStreamIsSafe) {
    Engine e = makeEngine(300);
    auto victim = std::make_shared<WaitingSink>();
    auto bystander = std::make_shared<WaitingSink>();
    const RequestId id = e.runtime->submit(greedy(makePrompt(20, 1), 100000), victim);
    e.runtime->submit(greedy(makePrompt(20, 2), 30), bystander);
    ASSERT_TRUE(victim->waitFor([&] { return victim->numTokens() >= 3; }));
    std::thread canceller([&] { e.runtime->cancel(id); });
    canceller.join();
    ASSERT_TRUE(victim->waitFor([&] { return victim->done(); }));
    ASSERT_TRUE(bystander->waitFor([&] { return bystander->done(); }));
    const size_t after = victim->numTokens();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(victim->numTokens(), after);
    EXPECT_EQ(victim->reason, FinishReason::Cancelled);
    EXPECT_EQ(victim->finishes, 1);
    EXPECT_EQ(victim->callsAfterFinish, 0);
    EXPECT_EQ(bystander->tokens, e.backend->reference(makePrompt(20, 2), 30));
}

TEST(EngineThread, CancelRacingSubmitAndFinish) {
    // Cancels arriving before, during and after each request's life: every sink still gets
    // exactly one finish and nothing after it.
    Engine e = makeEngine(50);
    std::vector<std::shared_ptr<WaitingSink>> sinks;
    std::vector<RequestId> ids;
    for (int i = 0; i < 12; ++i) {
        sinks.push_back(std::make_shared<WaitingSink>());
        ids.push_back(e.runtime->submit(greedy(makePrompt(8 + i, i), 3 + i * 3), sinks.back()));
        if (i % 3 == 0) e.runtime->cancel(ids.back());
    }
    std::thread t([&] {
        for (size_t i = 0; i < ids.size(); i += 2) e.runtime->cancel(ids[i]);
    });
    t.join();
    for (auto& s : sinks) {
        ASSERT_TRUE(s->waitFor([&] { return s->done(); }));
        EXPECT_EQ(s->finishes, 1);
        EXPECT_EQ(s->callsAfterFinish, 0);
        EXPECT_FALSE(s->failed);
    }
}

TEST(EngineThread, DestroyingTheEngineFinishesEveryRequestOnce) {
    std::vector<std::shared_ptr<WaitingSink>> sinks;
    {
        Engine e = makeEngine(200);
        for (int i = 0; i < 6; ++i) {
            sinks.push_back(std::make_shared<WaitingSink>());
            e.runtime->submit(greedy(makePrompt(30, i), 100000), sinks.back());
        }
        ASSERT_TRUE(sinks[0]->waitFor([&] { return sinks[0]->numTokens() > 0; }));
    }
    for (auto& s : sinks) {
        EXPECT_EQ(s->finishes, 1);
        EXPECT_EQ(s->reason, FinishReason::Cancelled);
    }
}

TEST(EngineThread, StatsCountARequestOnceItsSinkHasFinished) {
    Engine e = makeEngine(0);
    for (int i = 1; i <= 3; ++i) {
        auto s = std::make_shared<WaitingSink>();
        e.runtime->submit(greedy(makePrompt(40, i), 8), s);
        ASSERT_TRUE(s->waitFor([&] { return s->done(); }));
        const EngineStats st = e.runtime->stats();  // no waiting: published before the finish
        EXPECT_EQ(st.totalGeneratedTokens, 8u * i);
        EXPECT_EQ(st.running, 0);
    }
    EXPECT_EQ(e.runtime->contextLength(), 1024);
}

}  // namespace
}  // namespace hearth::test
