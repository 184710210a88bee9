#pragma once
// A conversation's generation settings as the chat store keeps them (a JSON object with the API
// server's names: temperature, top_p, top_k, min_p, repeat_penalty, max_tokens, seed) and as the
// engine takes them. Missing or out-of-range keys fall back to the defaults below, so an old or
// hand-edited row never yields an unusable request.

#include <QJsonObject>

#include "hearth/engine.h"

namespace hearth::app {

struct ChatSampling {
    static constexpr float kDefaultTemperature = 0.7f;
    static constexpr int kDefaultMaxTokens = 1024;

    SamplingParams params;
    int maxTokens = kDefaultMaxTokens;

    ChatSampling() { params.temperature = kDefaultTemperature; }
    static ChatSampling fromJson(const QJsonObject& json);
    QJsonObject toJson() const;
};

}  // namespace hearth::app
