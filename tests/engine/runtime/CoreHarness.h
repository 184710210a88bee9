#pragma once
// Helpers for serving tests: a sink that records everything (and checks the sink contract), and a
// harness owning an EngineCore over the FakeBackend that tests step one iteration at a time.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "../kv/FakeBackend.h"
#include "runtime/EngineCore.h"

namespace hearth::test {

inline bool validUtf8(const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        i += n;
    }
    return true;
}

struct RecordingSink : TokenSink {
    mutable std::mutex m;
    std::vector<TokenId> tokens;
    std::string text;
    std::vector<std::string> deltas;
    int events = 0, finishes = 0, callsAfterFinish = 0;
    bool finished = false, failed = false;
    FinishReason reason = FinishReason::Stop;
    Usage usage;
    Error error;
    int logprobRows = 0;

    void onTokens(RequestId, std::span<const TokenId> t, std::string_view delta,
                  const std::vector<TokenLogprob>* lp) override {
        std::lock_guard<std::mutex> l(m);
        if (finishes) ++callsAfterFinish;
        tokens.insert(tokens.end(), t.begin(), t.end());
        text += delta;
        deltas.emplace_back(delta);
        if (lp) logprobRows += static_cast<int>(lp->size());
        ++events;
    }
    void onFinished(RequestId, FinishReason r, const Usage& u) override {
        std::lock_guard<std::mutex> l(m);
        if (finishes) ++callsAfterFinish;
        ++finishes;
        finished = true;
        reason = r;
        usage = u;
    }
    void onError(RequestId, const Error& e) override {
        std::lock_guard<std::mutex> l(m);
        if (finishes) ++callsAfterFinish;
        ++finishes;
        failed = true;
        error = e;
    }
    bool done() const {
        std::lock_guard<std::mutex> l(m);
        return finishes > 0;
    }
};

inline std::vector<TokenId> makePrompt(int n, int salt) {
    std::vector<TokenId> t(n);
    for (int i = 0; i < n; ++i) t[i] = static_cast<TokenId>((i * 7 + salt * 13 + (i * i) % 5) % 60);
    return t;
}

inline GenerationRequest greedy(std::vector<TokenId> prompt, int n, std::string user = "") {
    GenerationRequest r;
    r.promptTokens = std::move(prompt);
    r.maxTokens = n;
    r.sampling.temperature = 0;
    r.user = std::move(user);
    return r;
}

// Speculative decoding over fakes: the target's repetitive share (FakeBackend::setPattern), and
// what config.spec's method needs (a draft FakeBackend, an index).
struct FakeSpec {
    int pattern = 0;
    int draftPattern = -1;     // >= 0: a draft FakeBackend with this pattern share and draftSalt
    uint64_t draftSalt = 1;
    std::shared_ptr<const DomainIndex> index;
    // A fixed cost per forward (a memory-bound step), so the planner's measured costs say that
    // speculation pays, as on a real small-batch decode; the draft model costs a fraction of it.
    int delayUs = 0, draftDelayUs = 0;
    int tokenDelayUs = 0;  // the target's cost per token of a step, on top
    double costRatio = -1;  // >= 0: the planner's fixed cost per token (no timing, deterministic)
};

class CoreHarness {
public:
    // kvBlocks: device pool size (blocks of 16 tokens).
    explicit CoreHarness(EngineConfig cfg, uint32_t kvBlocks = 64, std::shared_ptr<const Tokenizer> tok = nullptr,
                         Hash128 fingerprint = Hash128{0xfa4e, 1}, const FakeSpec& spec = {}) {
        auto be = std::make_unique<FakeBackend>();
        backend = be.get();
        backend->setPattern(spec.pattern, 0);
        backend->setDelayUs(spec.delayUs);
        backend->setTokenDelayUs(spec.tokenDelayUs);
        cfg.kvBytes = static_cast<uint64_t>(kvBlocks) * be->kvBlockBytes(KvDType::F16);
        if (cfg.contextLength == 0) cfg.contextLength = 4096;
        EngineCoreOptions o;
        o.fingerprint = fingerprint;
        o.specCostRatio = spec.costRatio;
        SpecResources res;
        res.index = spec.index;
        if (spec.draftPattern >= 0) {
            auto d = std::make_unique<FakeBackend>();
            d->setPattern(spec.draftPattern, spec.draftSalt);
            d->setDelayUs(spec.draftDelayUs);
            draft = d.get();
            res.draftBackend = std::move(d);
        }
        auto c = EngineCore::create(std::move(be), std::move(tok), cfg, o, std::move(res));
        EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().toString());
        if (c.ok()) core = std::move(*c);
    }
    ~CoreHarness() {
        if (core) core->shutdown();
    }

    std::shared_ptr<RecordingSink> submit(const GenerationRequest& r, RequestId* idOut = nullptr) {
        auto s = std::make_shared<RecordingSink>();
        const RequestId id = nextId++;
        core->add(id, r, s);
        if (idOut) *idOut = id;
        return s;
    }
    // Steps until nothing is left (or a step budget runs out, which fails the test).
    int runUntilIdle(int maxSteps = 100000) {
        int steps = 0;
        while (core->hasWork() && steps < maxSteps) {
            Status s = core->step();
            EXPECT_TRUE(s.ok()) << s.error().toString();
            ++steps;
        }
        EXPECT_FALSE(core->hasWork()) << "did not finish within " << maxSteps << " steps";
        return steps;
    }

    FakeBackend* backend = nullptr;
    FakeBackend* draft = nullptr;  // owned by the core's draft model runner
    std::unique_ptr<EngineCore> core;
    RequestId nextId = 1;
};

}  // namespace hearth::test
