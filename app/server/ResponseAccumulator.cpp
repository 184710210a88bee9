#include "server/ResponseAccumulator.h"

#include <algorithm>

namespace hearth::app::server {

ResponseAccumulator::ResponseAccumulator(int choices, int choicesPerPrompt)
    : choices_(static_cast<size_t>(std::max(0, choices))), perPrompt_(std::max(1, choicesPerPrompt)) {}

void ResponseAccumulator::add(const ChoiceEvent& e) {
    if (e.choice < 0 || e.choice >= choices()) return;
    ChoiceState& c = choices_[static_cast<size_t>(e.choice)];
    switch (e.kind) {
    case ChoiceEvent::Kind::Tokens:
        c.text += e.text;
        c.tokens.insert(c.tokens.end(), e.tokens.begin(), e.tokens.end());
        c.logprobs.insert(c.logprobs.end(), e.logprobs.begin(), e.logprobs.end());
        break;
    case ChoiceEvent::Kind::Finished:
        c.reason = e.reason;
        c.usage = e.usage;
        c.ended = true;
        break;
    case ChoiceEvent::Kind::Failed:
        c.reason = FinishReason::Error;
        c.error = e.error;
        c.ended = true;
        if (!firstError_) firstError_ = e.error;
        break;
    }
}

int ResponseAccumulator::promptTokens() const {
    int n = 0;
    for (size_t i = 0; i < choices_.size(); i += static_cast<size_t>(perPrompt_)) n += choices_[i].usage.promptTokens;
    return n;
}

int ResponseAccumulator::cachedPromptTokens() const {
    int n = 0;
    for (size_t i = 0; i < choices_.size(); i += static_cast<size_t>(perPrompt_)) n += choices_[i].usage.cachedPromptTokens;
    return n;
}

int ResponseAccumulator::completionTokens() const {
    int n = 0;
    for (const auto& c : choices_) n += c.usage.completionTokens;
    return n;
}

double ResponseAccumulator::totalMs() const {
    double t = 0;
    for (const auto& c : choices_) t = std::max(t, c.usage.totalMs);
    return t;
}

double ResponseAccumulator::ttftMs() const {
    double t = 0;
    bool any = false;
    for (const auto& c : choices_) {
        if (c.usage.ttftMs <= 0) continue;
        t = any ? std::min(t, c.usage.ttftMs) : c.usage.ttftMs;
        any = true;
    }
    return t;
}

}  // namespace hearth::app::server
