#pragma once
// The TokenSink of one choice: turns engine callbacks (on the engine thread) into ChoiceEvents on
// the request's channel. One sink per submitted GenerationRequest, so events need no request id
// (the engine may call it before submit() has even returned the id).

#include <memory>

#include "hearth/engine.h"
#include "server/GenerationChannel.h"

namespace hearth::app::server {

class ChoiceSink final : public TokenSink {
public:
    ChoiceSink(std::shared_ptr<GenerationChannel> channel, int choice) : channel_(std::move(channel)), choice_(choice) {}

    void onTokens(RequestId, std::span<const TokenId> tokens, std::string_view textDelta,
                  const std::vector<TokenLogprob>* logprobs) override;
    void onFinished(RequestId, FinishReason reason, const Usage& usage) override;
    void onError(RequestId, const Error& error) override;

private:
    std::shared_ptr<GenerationChannel> channel_;
    int choice_;
};

}  // namespace hearth::app::server
