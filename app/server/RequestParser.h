#pragma once
// Request bodies -> RequestParams, with every check that does not need the model: JSON types,
// ranges, unsupported parameters that would change the result, message shapes, response_format.
// Each parse returns the first problem as an ApiError (400 with the offending parameter).
//
// OpenAI fields read: model, messages | prompt, max_tokens, max_completion_tokens, temperature,
// top_p, frequency_penalty, presence_penalty, seed, stop, n, stream, stream_options.include_usage,
// logprobs, top_logprobs, echo, user, response_format, tools; extensions top_k, min_p,
// repeat_penalty. Refused when set: logit_bias, suffix, best_of > n, functions, function_call,
// audio, prediction, tool_choice that forces a call, image/audio content parts.
// Ollama fields: model, messages | prompt, system, raw, context, stream (default true), format
// ("json" or a schema), options.{temperature, top_k, top_p, min_p, seed, num_predict, stop,
// repeat_penalty, repeat_last_n, presence_penalty, frequency_penalty}; images are refused.

#include <optional>

#include <nlohmann/json.hpp>

#include "server/ApiError.h"
#include "server/RequestParams.h"

namespace hearth::app::server {

class RequestParser {
public:
    static std::optional<ApiError> chat(const nlohmann::json& body, ChatParams& out);
    static std::optional<ApiError> completion(const nlohmann::json& body, CompletionParams& out);
    static std::optional<ApiError> ollama(const nlohmann::json& body, bool chat, OllamaParams& out);

    // The body as a JSON object, or the 400 for malformed JSON / a non-object.
    static std::optional<ApiError> parseBody(const std::string& text, nlohmann::json& out);
};

}  // namespace hearth::app::server
