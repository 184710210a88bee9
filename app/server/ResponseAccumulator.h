#pragma once
// Gathers a request's choice events into whole choices (text, tokens, logprobs, finish) and the
// usage totals, for non-streamed responses, the final usage chunk and the access log.
//
// Invariants: choice(i) reflects every event given to add() for choice i, in order; prompt tokens
// are counted once per prompt (choices i with i % choicesPerPrompt == 0), completion tokens over
// all choices; firstError() is the first Failed event's error, if any.

#include <optional>
#include <string>
#include <vector>

#include "server/ChoiceEvent.h"

namespace hearth::app::server {

struct ChoiceState {
    std::string text;
    std::vector<TokenId> tokens;
    std::vector<TokenLogprob> logprobs;
    FinishReason reason = FinishReason::Stop;
    Usage usage;
    bool ended = false;
    std::optional<Error> error;
};

class ResponseAccumulator {
public:
    ResponseAccumulator(int choices, int choicesPerPrompt);

    void add(const ChoiceEvent& event);
    const ChoiceState& choice(int i) const { return choices_[static_cast<size_t>(i)]; }
    int choices() const { return static_cast<int>(choices_.size()); }

    int promptTokens() const;
    int cachedPromptTokens() const;
    int completionTokens() const;
    double totalMs() const;  // the slowest choice
    double ttftMs() const;   // the fastest first token
    const std::optional<Error>& firstError() const { return firstError_; }

private:
    std::vector<ChoiceState> choices_;
    int perPrompt_;
    std::optional<Error> firstError_;
};

}  // namespace hearth::app::server
