#include "host/ChatSampling.h"

#include <QJsonValue>

namespace hearth::app {
namespace {
double number(const QJsonObject& o, const char* key, double fallback, double lo, double hi) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble()) return fallback;
    const double d = v.toDouble();
    return d >= lo && d <= hi ? d : fallback;
}
}  // namespace

ChatSampling ChatSampling::fromJson(const QJsonObject& json) {
    ChatSampling s;
    SamplingParams& p = s.params;
    p.temperature = float(number(json, "temperature", kDefaultTemperature, 0, 5));
    p.topP = float(number(json, "top_p", p.topP, 0, 1));
    p.topK = int(number(json, "top_k", p.topK, 0, 100000));
    p.minP = float(number(json, "min_p", p.minP, 0, 1));
    p.repeatPenalty = float(number(json, "repeat_penalty", p.repeatPenalty, 0.5, 5));
    s.maxTokens = int(number(json, "max_tokens", kDefaultMaxTokens, 1, 1 << 20));
    if (json.value("seed").isDouble() && json.value("seed").toDouble() >= 0)
        p.seed = uint64_t(json.value("seed").toDouble());
    return s;
}

QJsonObject ChatSampling::toJson() const {
    QJsonObject o{{"temperature", double(params.temperature)},
                  {"top_p", double(params.topP)},
                  {"top_k", params.topK},
                  {"min_p", double(params.minP)},
                  {"repeat_penalty", double(params.repeatPenalty)},
                  {"max_tokens", maxTokens}};
    if (params.seed != SamplingParams{}.seed) o.insert("seed", double(params.seed));
    return o;
}

}  // namespace hearth::app
