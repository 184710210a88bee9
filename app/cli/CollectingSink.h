#pragma once
// A TokenSink for command-line tools: gathers one request's tokens, text and finish (called on
// the engine thread), optionally forwards text deltas as they arrive, and lets the main thread
// wait for the end. Event times are kept for inter-token latency figures.
//
// Invariant: after wait() returns, finished is true and nothing writes the fields any more.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hearth/engine.h"

namespace hearth::cli {

class CollectingSink : public TokenSink {
public:
    using Clock = std::chrono::steady_clock;
    explicit CollectingSink(std::function<void(std::string_view)> onText = {}) : onText_(std::move(onText)) {}

    void onTokens(RequestId, std::span<const TokenId> tokens, std::string_view text,
                  const std::vector<TokenLogprob>*) override {
        std::lock_guard<std::mutex> l(m_);
        this->tokens.insert(this->tokens.end(), tokens.begin(), tokens.end());
        this->text += text;
        if (!tokens.empty()) eventTimes.push_back({Clock::now(), static_cast<int>(tokens.size())});
        if (onText_ && !text.empty()) onText_(text);
    }
    void onFinished(RequestId, FinishReason r, const Usage& u) override {
        std::lock_guard<std::mutex> l(m_);
        reason = r;
        usage = u;
        finished = true;
        cv_.notify_all();
    }
    void onError(RequestId, const Error& e) override {
        std::lock_guard<std::mutex> l(m_);
        error = e;
        reason = FinishReason::Error;
        finished = true;
        cv_.notify_all();
    }
    void wait() {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return finished; });
    }

    struct Event {
        Clock::time_point at;
        int tokens;
    };
    std::vector<TokenId> tokens;
    std::string text;
    std::vector<Event> eventTimes;
    bool finished = false;
    FinishReason reason = FinishReason::Stop;
    Usage usage;
    std::optional<Error> error;

private:
    std::function<void(std::string_view)> onText_;
    std::mutex m_;
    std::condition_variable cv_;
};

}  // namespace hearth::cli
