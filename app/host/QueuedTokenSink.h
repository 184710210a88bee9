#pragma once
// A hearth::TokenSink that forwards engine callbacks to a TokenRelay (and from there, queued, to
// the GUI thread). It never blocks: each callback converts the UTF-8 delta and emits one signal.

#include <memory>

#include "hearth/engine.h"
#include "host/TokenRelay.h"

namespace hearth::app {

class QueuedTokenSink final : public TokenSink {
public:
    explicit QueuedTokenSink(std::shared_ptr<TokenRelay> relay) : relay_(std::move(relay)) {}

    void onTokens(RequestId id, std::span<const TokenId> tokens, std::string_view textDelta,
                  const std::vector<TokenLogprob>* logprobs) override;
    void onFinished(RequestId id, FinishReason reason, const Usage& usage) override;
    void onError(RequestId id, const Error& error) override;

private:
    std::shared_ptr<TokenRelay> relay_;
};

}  // namespace hearth::app
