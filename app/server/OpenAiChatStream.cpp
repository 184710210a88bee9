#include "server/OpenAiChatStream.h"

#include "server/ApiError.h"

namespace hearth::app::server {

using nlohmann::json;

OpenAiChatStream::OpenAiChatStream(ResponseIdentity who, int choices, bool includeUsage, bool logprobs, int topLogprobs,
                                   const Tokenizer& tokenizer)
    : who_(std::move(who)), includeUsage_(includeUsage), logprobs_(logprobs), topLogprobs_(topLogprobs), tok_(tokenizer),
      roleSent_(static_cast<size_t>(choices), false) {}

std::string OpenAiChatStream::chunk(int choice, json delta, json logprobs, const char* finish) {
    json c = {{"index", choice},
              {"delta", std::move(delta)},
              {"logprobs", std::move(logprobs)},
              {"finish_reason", finish ? json(finish) : json(nullptr)}};
    json payload = {{"id", who_.id},       {"object", "chat.completion.chunk"}, {"created", who_.created},
                    {"model", who_.model}, {"system_fingerprint", "hearth"},     {"choices", json::array({c})}};
    if (includeUsage_) payload["usage"] = nullptr;
    return OpenAiFormat::sse(payload);
}

std::string OpenAiChatStream::roleOnce(int choice) {
    if (roleSent_[static_cast<size_t>(choice)]) return {};
    roleSent_[static_cast<size_t>(choice)] = true;
    return chunk(choice, {{"role", "assistant"}, {"content", ""}, {"refusal", nullptr}}, nullptr, nullptr);
}

std::string OpenAiChatStream::onEvent(const ChoiceEvent& e, const ResponseAccumulator&) {
    if (e.choice < 0 || e.choice >= static_cast<int>(roleSent_.size())) return {};
    switch (e.kind) {
    case ChoiceEvent::Kind::Tokens: {
        std::string out = roleOnce(e.choice);
        const bool withLogprobs = logprobs_ && !e.logprobs.empty();
        if (e.text.empty() && !withLogprobs) return out;
        out += chunk(e.choice, {{"content", e.text}},
                     withLogprobs ? OpenAiFormat::chatLogprobs(e.logprobs, tok_, topLogprobs_) : json(nullptr), nullptr);
        return out;
    }
    case ChoiceEvent::Kind::Finished:
        return roleOnce(e.choice) + chunk(e.choice, json::object(), nullptr, OpenAiFormat::finishReason(e.reason));
    case ChoiceEvent::Kind::Failed: return OpenAiFormat::sse(ApiError::fromEngine(e.error).openAiBody());
    }
    return {};
}

std::string OpenAiChatStream::finish(const ResponseAccumulator& all) {
    std::string out;
    if (includeUsage_) {
        json payload = {{"id", who_.id},       {"object", "chat.completion.chunk"}, {"created", who_.created},
                        {"model", who_.model}, {"system_fingerprint", "hearth"},     {"choices", json::array()},
                        {"usage", OpenAiFormat::usage(all)}};
        out += OpenAiFormat::sse(payload);
    }
    return out + "data: [DONE]\n\n";
}

}  // namespace hearth::app::server
