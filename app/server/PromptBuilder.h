#pragma once
// Turns chat messages or prompt text into the token ids the engine runs, with the model's chat
// template (or the fallback transcript) and its tokenizer, and checks the result fits the context.
//
// Chat prompts go through hearth::ChatFormatter, the one conversation-to-prompt path of all front
// ends (template or fallback transcript, special text parsed, BOS once, end-of-turn stops).
//
// Invariants of a BuiltPrompt: tokens is what the engine will see (never empty); text is the
// rendered prompt (for echo and logs); extraStops / stopTokens are the stops the template implies
// (the fallback transcript stops where the next "User:" turn would begin).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/ApiError.h"
#include "server/ServedModel.h"

namespace hearth::app::server {

struct BuiltPrompt {
    std::string text;
    std::vector<TokenId> tokens;
    std::vector<std::string> extraStops;
    std::vector<TokenId> stopTokens;
};

class PromptBuilder {
public:
    // Renders `messages` (and `tools`, may be null) with add_generation_prompt.
    static std::optional<ApiError> chat(const ServedModel& model, const nlohmann::ordered_json& messages,
                                        const nlohmann::ordered_json& tools, BuiltPrompt& out);
    // Plain text (completions, Ollama raw): tokenized with BOS per the model's metadata.
    static std::optional<ApiError> text(const ServedModel& model, const std::string& text, BuiltPrompt& out);
    // Token ids the client sent (checked against the vocabulary).
    static std::optional<ApiError> tokens(const ServedModel& model, const std::vector<TokenId>& ids, BuiltPrompt& out);

    // 400 when the prompt leaves no room for output, or max_tokens can never fit.
    static std::optional<ApiError> checkFits(const ServedModel& model, const BuiltPrompt& prompt,
                                             const std::optional<int64_t>& maxTokens);
};

}  // namespace hearth::app::server
