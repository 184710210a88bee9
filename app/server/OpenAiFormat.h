#pragma once
// OpenAI response bodies: chat.completion, text_completion, their stream chunks, usage, logprobs,
// the model list. Field names and shapes follow the OpenAI API reference; ids are random
// ("chatcmpl-...", "cmpl-...") and `created` is Unix seconds.

#include <string>

#include <nlohmann/json.hpp>

#include "server/ResponseAccumulator.h"
#include "server/ServedModel.h"

namespace hearth::app::server {

struct ResponseIdentity {
    std::string id;
    int64_t created = 0;
    std::string model;
};

class OpenAiFormat {
public:
    static ResponseIdentity identity(const std::string& prefix, const std::string& model);
    static const char* finishReason(FinishReason r);  // "stop" / "length" (cancelled reads as stop)

    static nlohmann::json usage(const ResponseAccumulator& acc);
    // chat: {"content": [{token, logprob, bytes, top_logprobs}]}; top = alternatives per token.
    static nlohmann::json chatLogprobs(const std::vector<TokenLogprob>& lps, const Tokenizer& tok, int top);
    // completions: {tokens, token_logprobs, top_logprobs, text_offset}; offsets start at `offset`.
    static nlohmann::json completionLogprobs(const std::vector<TokenLogprob>& lps, const Tokenizer& tok, int top,
                                             size_t offset);

    static nlohmann::json chatResponse(const ResponseIdentity& who, const ResponseAccumulator& acc, bool logprobs,
                                       int topLogprobs, const Tokenizer& tok);
    static nlohmann::json completionResponse(const ResponseIdentity& who, const ResponseAccumulator& acc, int logprobs,
                                             const std::vector<std::string>& echo, int choicesPerPrompt,
                                             const Tokenizer& tok);
    static nlohmann::json modelObject(const ServedModel& model);

    // "data: {json}\n\n"
    static std::string sse(const nlohmann::json& payload);
    // JSON text safe for any bytes a model produced (invalid UTF-8 becomes U+FFFD).
    static std::string dump(const nlohmann::json& payload);
};

}  // namespace hearth::app::server
