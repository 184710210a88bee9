#pragma once
// One engine callback for one choice of a request, as data: what the HTTP side formats.
// Invariants: Tokens events carry tokens (and logprobs aligned with them when requested) and the
// text they completed; each choice ends with exactly one Finished or Failed event.

#include <string>
#include <vector>

#include "hearth/engine.h"

namespace hearth::app::server {

struct ChoiceEvent {
    enum class Kind { Tokens, Finished, Failed };
    Kind kind = Kind::Tokens;
    int choice = 0;
    std::vector<TokenId> tokens;
    std::string text;
    std::vector<TokenLogprob> logprobs;
    FinishReason reason = FinishReason::Stop;
    Usage usage;
    Error error;
};

}  // namespace hearth::app::server
