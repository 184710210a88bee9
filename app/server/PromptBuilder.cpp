#include "server/PromptBuilder.h"

namespace hearth::app::server {

std::optional<ApiError> PromptBuilder::chat(const ServedModel& model, const nlohmann::ordered_json& messages,
                                            const nlohmann::ordered_json& tools, BuiltPrompt& out) {
    ChatTemplateInputs in;
    in.messages = messages;
    in.tools = tools;
    in.addGenerationPrompt = true;
    auto prompt = model.chatFormatter().format(std::move(in));
    if (!prompt) return ApiError::badRequest(prompt.error().message, "messages", "template_error");
    out.text = std::move(prompt->text);
    out.tokens = std::move(prompt->tokens);
    out.extraStops = std::move(prompt->stopStrings);
    out.stopTokens = std::move(prompt->stopTokens);
    return std::nullopt;
}

std::optional<ApiError> PromptBuilder::text(const ServedModel& model, const std::string& text, BuiltPrompt& out) {
    out.text = text;
    out.tokens = model.tokenizer().encode(text, TokenizeOptions{true, true});
    if (out.tokens.empty()) return ApiError::badRequest("the prompt is empty", "prompt");
    return std::nullopt;
}

std::optional<ApiError> PromptBuilder::tokens(const ServedModel& model, const std::vector<TokenId>& ids, BuiltPrompt& out) {
    const int32_t vocab = model.tokenizer().vocabSize();
    for (TokenId t : ids)
        if (t < 0 || t >= vocab)
            return ApiError::badRequest("token id " + std::to_string(t) + " is outside the vocabulary (" +
                                            std::to_string(vocab) + " tokens)",
                                        "prompt");
    out.tokens = ids;
    out.text = model.tokenizer().decode(ids);
    if (out.tokens.empty()) return ApiError::badRequest("the prompt is empty", "prompt");
    return std::nullopt;
}

std::optional<ApiError> PromptBuilder::checkFits(const ServedModel& model, const BuiltPrompt& prompt,
                                                 const std::optional<int64_t>& maxTokens) {
    const int64_t ctx = model.contextLength();
    const auto n = static_cast<int64_t>(prompt.tokens.size());
    if (ctx > 0 && n >= ctx)
        return ApiError::badRequest("This model's maximum context length is " + std::to_string(ctx) +
                                        " tokens, but the prompt has " + std::to_string(n) + " tokens",
                                    "messages", "context_length_exceeded");
    if (ctx > 0 && maxTokens && *maxTokens > ctx)
        return ApiError::badRequest("max_tokens is " + std::to_string(*maxTokens) + ", more than this model's context of " +
                                        std::to_string(ctx) + " tokens",
                                    "max_tokens", "invalid_value");
    return std::nullopt;
}

}  // namespace hearth::app::server
