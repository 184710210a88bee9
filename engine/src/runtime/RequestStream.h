#pragma once
// The output side of one request on the engine thread: its sampler, its UTF-8-safe detokenizer,
// its stop-string matcher, the tokens and text gathered during a step, and its sink.
//
// Invariants: the sink sees at most one onTokens() per step (emitStep) and then exactly one of
// onFinished()/onError() (finish/fail), after which the stream is done and calls nothing more;
// text handed to the sink is valid UTF-8 and never contains a stop string.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "constraint/JsonConstraint.h"
#include "hearth/engine.h"
#include "runtime/StopStringMatcher.h"
#include "sampling/Sampler.h"

namespace hearth {

class RequestStream {
public:
    using Clock = std::chrono::steady_clock;

    RequestStream(RequestId id, std::shared_ptr<TokenSink> sink, std::shared_ptr<const Tokenizer> tokenizer,
                  const GenerationRequest& request, Clock::time_point submitted);

    RequestId id() const { return id_; }
    Sampler& sampler() { return sampler_; }
    int logprobs() const { return logprobs_; }
    bool done() const { return done_; }
    bool stopStringMatched() const { return stops_.matched(); }
    // The backend's device sampler can draw this request's tokens: plain temperature / top-k /
    // top-p / min-p, with no penalties, bans, constraint or logprobs.
    bool deviceSamplable() const;
    // response_format constraint (null when the output is free).
    constraint::JsonConstraint* constraint() { return constraint_.get(); }
    void setConstraint(std::unique_ptr<constraint::JsonConstraint> c) { constraint_ = std::move(c); }

    // A generated token. Stop tokens end the request without being shown (no text, no id).
    // Returns the inter-token gap in ms (or the TTFT for the first token) for the metrics.
    double acceptToken(TokenId token, bool isStopToken, std::optional<TokenLogprob> logprob, Clock::time_point now);
    // Sends what this step produced (if anything).
    void emitStep();
    // Flushes held text, then onFinished with the usage filled in from the scheduler's counts.
    void finish(FinishReason reason, Usage usage, Clock::time_point now);
    void fail(const Error& error);

    bool hasFirstToken() const { return hasFirst_; }
    double ttftMs() const { return ttftMs_; }

private:
    RequestId id_;
    std::shared_ptr<TokenSink> sink_;
    std::shared_ptr<const Tokenizer> tokenizer_;
    std::optional<IncrementalDecoder> decoder_;
    StopStringMatcher stops_;
    Sampler sampler_;
    std::unique_ptr<constraint::JsonConstraint> constraint_;
    int logprobs_ = 0;
    Clock::time_point submitted_, last_;
    bool hasFirst_ = false;
    double ttftMs_ = 0, itlSumMs_ = 0;
    int itlCount_ = 0;
    bool done_ = false;

    std::vector<TokenId> stepTokens_;
    std::string stepText_;
    std::vector<TokenLogprob> stepLogprobs_;
};

}  // namespace hearth
