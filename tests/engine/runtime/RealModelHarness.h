#pragma once
// What the real-model engine tests share: llama.cpp reference cases from ../shared/testdata, a sink
// that collects one request's tokens and waits for its finish, and engines on ../shared/models.
#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <mutex>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"
#include "../model/ReferenceCases.h"
#include "hearth/engine.h"

namespace hearth::test {

using Case = ReferenceCase;

// The reference cases of one model in a reference file.
inline std::vector<Case> referenceCases(const std::string& file, const std::string& model) {
    std::vector<Case> out;
    for (Case& c : loadReferenceCases(file))
        if (c.model == model) out.push_back(std::move(c));
    EXPECT_FALSE(out.empty()) << file << " has no cases for " << model;
    return out;
}

class Sink : public TokenSink {
public:
    void onTokens(RequestId, std::span<const TokenId> t, std::string_view d, const std::vector<TokenLogprob>*) override {
        std::lock_guard<std::mutex> l(m_);
        tokens.insert(tokens.end(), t.begin(), t.end());
        text += d;
        cv_.notify_all();
    }
    void onFinished(RequestId, FinishReason r, const Usage& u) override {
        std::lock_guard<std::mutex> l(m_);
        reason = r;
        usage = u;
        done = true;
        cv_.notify_all();
    }
    void onError(RequestId, const Error& e) override {
        std::lock_guard<std::mutex> l(m_);
        error = e.toString();
        done = true;
        cv_.notify_all();
    }
    void wait() {
        std::unique_lock<std::mutex> l(m_);
        ASSERT_TRUE(cv_.wait_for(l, std::chrono::seconds(120), [&] { return done; }));
        ASSERT_TRUE(error.empty()) << error;
    }
    void waitTokens(size_t n) {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait_for(l, std::chrono::seconds(60), [&] { return done || tokens.size() >= n; });
    }
    std::vector<TokenId> tokens;
    std::string text, error;
    FinishReason reason = FinishReason::Stop;
    Usage usage;
    bool done = false;

private:
    std::mutex m_;
    std::condition_variable cv_;
};

inline std::unique_ptr<Engine> open(EngineConfig c, const std::string& model) {
    c.modelPath = test::modelPath(model);
    // One thread: these models are tiny, and a thread pool's barriers only add waiting on a busy
    // 2-core CI machine.
    if (c.threads == 0) c.threads = 1;
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return e.ok() ? std::move(*e) : nullptr;
}

inline GenerationRequest greedy(std::vector<TokenId> prompt, int n) {
    GenerationRequest r;
    r.promptTokens = std::move(prompt);
    r.maxTokens = n;
    r.ignoreEos = true;
    r.sampling.temperature = 0;
    return r;
}

inline std::shared_ptr<Sink> submit(Engine& e, GenerationRequest r) {
    auto s = std::make_shared<Sink>();
    e.submit(std::move(r), s);
    return s;
}

}  // namespace hearth::test
