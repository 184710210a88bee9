#pragma once
// What the request parsers extract from a body, before the model is involved (the prompt is not
// rendered or tokenized yet). One struct per endpoint family; the common part is shared.
//
// Invariants (established by the parsers): n in [1, kMaxChoices]; maxTokens, when given, >= 1 (or
// -1: "until the context is full", Ollama only); stop strings are non-empty; constraint has been
// validated (validateOutputConstraint) when its kind is not None.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hearth/engine.h"

namespace hearth::app::server {

inline constexpr int kMaxChoices = 16;
inline constexpr size_t kMaxStopStrings = 16;

struct CommonParams {
    std::string model;                // as the client named it (may be empty)
    SamplingParams sampling;          // engine defaults where the client said nothing
    bool seeded = false;              // the client gave a seed
    std::optional<int64_t> maxTokens;
    std::vector<std::string> stop;
    int n = 1;
    bool stream = false;
    bool includeUsage = false;        // stream_options.include_usage
    bool ignoreEos = false;           // extension: generate past end-of-generation tokens
    std::string user;                 // OpenAI "user": the fairness key when no API key names the caller
    OutputConstraint constraint;
};

struct ChatParams {
    CommonParams common;
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();  // normalised for the template
    nlohmann::ordered_json tools;     // null when none
    bool logprobs = false;
    int topLogprobs = 0;
};

struct PromptInput {
    std::string text;
    std::vector<TokenId> tokens;      // used when non-empty (the client sent token ids)
};

struct CompletionParams {
    CommonParams common;
    std::vector<PromptInput> prompts;
    bool echo = false;
    int logprobs = -1;                // top-N per token; -1: none
};

struct OllamaParams {
    CommonParams common;
    bool chat = false;                // /api/chat (messages) or /api/generate (prompt)
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    nlohmann::ordered_json tools;
    std::string prompt, system, suffix;
    bool raw = false;                 // generate: the prompt is sent as is, without the template
    std::vector<TokenId> context;     // generate: tokens of an earlier exchange to continue
};

}  // namespace hearth::app::server
