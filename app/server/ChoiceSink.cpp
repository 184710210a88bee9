#include "server/ChoiceSink.h"

namespace hearth::app::server {

void ChoiceSink::onTokens(RequestId, std::span<const TokenId> tokens, std::string_view textDelta,
                          const std::vector<TokenLogprob>* logprobs) {
    ChoiceEvent e;
    e.kind = ChoiceEvent::Kind::Tokens;
    e.choice = choice_;
    e.tokens.assign(tokens.begin(), tokens.end());
    e.text = std::string(textDelta);
    if (logprobs) e.logprobs = *logprobs;
    channel_->push(std::move(e));
}

void ChoiceSink::onFinished(RequestId, FinishReason reason, const Usage& usage) {
    ChoiceEvent e;
    e.kind = ChoiceEvent::Kind::Finished;
    e.choice = choice_;
    e.reason = reason;
    e.usage = usage;
    channel_->push(std::move(e));
}

void ChoiceSink::onError(RequestId, const Error& error) {
    ChoiceEvent e;
    e.kind = ChoiceEvent::Kind::Failed;
    e.choice = choice_;
    e.error = error;
    channel_->push(std::move(e));
}

}  // namespace hearth::app::server
