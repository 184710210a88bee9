#include "host/QueuedTokenSink.h"

namespace hearth::app {

void QueuedTokenSink::onTokens(RequestId id, std::span<const TokenId> tokens, std::string_view textDelta,
                               const std::vector<TokenLogprob>*) {
    relay_->postTokens(id, QString::fromUtf8(textDelta.data(), qsizetype(textDelta.size())), int(tokens.size()));
}

void QueuedTokenSink::onFinished(RequestId id, FinishReason reason, const Usage& usage) {
    relay_->postFinished(id, reason, usage);
}

void QueuedTokenSink::onError(RequestId id, const Error& error) {
    relay_->postFailed(id, QString::fromStdString(error.toString()));
}

}  // namespace hearth::app
