#pragma once
// A scripted InferenceBackend for the server tests: a thread that "generates" one token per step
// for every running request (text "t0 t1 ..."), honours maxTokens (finish "length") and cancel,
// can delay the first token (a long prefill) and fail on request. It records every request it was
// given, so tests can check how the server mapped API parameters.
//
// Script, read from the prompt text (the tokens decoded): "[fail]" -> onError(InvalidArgument);
// "[stop:N]" -> finish "stop" after N tokens (default 6); "[delay:MS]" -> first token after MS.

#include <QString>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "host/InferenceBackend.h"

namespace hearth::test {

class FakeBackend : public app::InferenceBackend {
public:
    FakeBackend(std::shared_ptr<const Tokenizer> tok, std::string path, int stepMs = 2)
        : tok_(std::move(tok)), path_(std::move(path)), stepMs_(stepMs), thread_([this] { loop(); }) {}
    ~FakeBackend() override {
        {
            std::lock_guard<std::mutex> l(m_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }

    RequestId submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) override {
        std::lock_guard<std::mutex> l(m_);
        const RequestId id = next_++;
        Running r;
        r.request = request;
        r.sink = std::move(sink);
        const std::string text = tok_->decode(request.promptTokens.empty() ? tok_->encode(request.promptText) : request.promptTokens);
        r.fail = text.find("[fail]") != std::string::npos;
        if (auto p = text.find("[stop:"); p != std::string::npos) r.stopAfter = std::atoi(text.c_str() + p + 6);
        if (auto p = text.find("[delay:"); p != std::string::npos)
            r.startAt = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::atoi(text.c_str() + p + 7));
        r.promptText = text;
        running_[id] = std::move(r);
        submitted_.push_back(request);
        cv_.notify_all();
        return id;
    }
    void cancel(RequestId id) override {
        std::lock_guard<std::mutex> l(m_);
        cancelled_.push_back(id);
        if (auto it = running_.find(id); it != running_.end()) it->second.cancel = true;
        cv_.notify_all();
    }
    EngineStats stats() const override {
        std::lock_guard<std::mutex> l(m_);
        EngineStats s;
        s.running = static_cast<int>(running_.size());
        s.totalRequests = next_ - 1;
        s.kvBlocksTotal = 100;
        s.kvBlocksUsed = 7;
        return s;
    }
    std::shared_ptr<const Tokenizer> tokenizer() const override { return tok_; }
    std::string modelPath() const override { return path_; }
    std::string modelName() const override { return "fake"; }
    int contextLength() const override { return context_; }
    void setContextLength(int n) { context_ = n; }
    std::string chatTemplate() const override { return chatTemplate_; }
    void setChatTemplate(std::string t) { chatTemplate_ = std::move(t); }

    std::vector<GenerationRequest> submitted() const {
        std::lock_guard<std::mutex> l(m_);
        return submitted_;
    }
    size_t cancelledCount() const {
        std::lock_guard<std::mutex> l(m_);
        return cancelled_.size();
    }
    int runningCount() const {
        std::lock_guard<std::mutex> l(m_);
        return static_cast<int>(running_.size());
    }

private:
    struct Running {
        GenerationRequest request;
        std::shared_ptr<TokenSink> sink;
        std::string promptText;
        int produced = 0;
        int stopAfter = 6;
        bool fail = false, cancel = false;
        std::chrono::steady_clock::time_point startAt = std::chrono::steady_clock::now();
    };

    void loop() {
        std::unique_lock<std::mutex> l(m_);
        while (!stop_) {
            cv_.wait_for(l, std::chrono::milliseconds(stepMs_));
            const auto now = std::chrono::steady_clock::now();
            for (auto it = running_.begin(); it != running_.end();) {
                Running& r = it->second;
                const RequestId id = it->first;
                Usage u;
                u.promptTokens = static_cast<int>(r.request.promptTokens.size());
                u.completionTokens = r.produced;
                u.totalMs = 1.5;
                u.ttftMs = 0.5;
                if (r.cancel) {
                    r.sink->onFinished(id, FinishReason::Cancelled, u);
                    it = running_.erase(it);
                    continue;
                }
                if (r.fail) {
                    r.sink->onError(id, makeError(ErrorCode::InvalidArgument, "scripted failure"));
                    it = running_.erase(it);
                    continue;
                }
                if (now < r.startAt) { ++it; continue; }
                const int limit = r.request.maxTokens < 0 ? r.stopAfter : std::min(r.stopAfter, r.request.maxTokens);
                if (r.produced >= limit) {
                    r.sink->onFinished(id, r.produced >= r.request.maxTokens && r.request.maxTokens >= 0 ? FinishReason::Length
                                                                                                           : FinishReason::Stop,
                                       u);
                    it = running_.erase(it);
                    continue;
                }
                const TokenId t = 10 + r.produced;
                std::vector<TokenLogprob> lps;
                if (r.request.sampling.logprobs > 0) {
                    TokenLogprob lp{t, -0.25f, {}};
                    for (int k = 0; k < r.request.sampling.logprobs; ++k) lp.top.push_back({TokenId(20 + k), -1.0f - k});
                    lps.push_back(lp);
                }
                const std::string text = "t" + std::to_string(r.produced) + " ";
                ++r.produced;
                r.sink->onTokens(id, std::span<const TokenId>(&t, 1), text, lps.empty() ? nullptr : &lps);
                ++it;
            }
        }
        for (auto& [id, r] : running_) r.sink->onFinished(id, FinishReason::Cancelled, Usage{});
        running_.clear();
    }

    std::shared_ptr<const Tokenizer> tok_;
    std::string path_;
    int stepMs_;
    std::string chatTemplate_;
    int context_ = 256;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::map<RequestId, Running> running_;
    std::vector<GenerationRequest> submitted_;
    std::vector<RequestId> cancelled_;
    RequestId next_ = 1;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace hearth::test
