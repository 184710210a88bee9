#include "server/OpenAiCompletionStream.h"

#include "server/ApiError.h"

namespace hearth::app::server {

using nlohmann::json;

OpenAiCompletionStream::OpenAiCompletionStream(ResponseIdentity who, int choices, int choicesPerPrompt, bool includeUsage,
                                               int logprobs, std::vector<std::string> echo, const Tokenizer& tokenizer)
    : who_(std::move(who)), perPrompt_(std::max(1, choicesPerPrompt)), includeUsage_(includeUsage), logprobs_(logprobs),
      echo_(std::move(echo)), tok_(tokenizer), started_(static_cast<size_t>(choices), false),
      offsets_(static_cast<size_t>(choices), 0) {}

std::string OpenAiCompletionStream::chunk(int choice, const std::string& text, json logprobs, const char* finish) {
    json c = {{"index", choice},
              {"text", text},
              {"logprobs", std::move(logprobs)},
              {"finish_reason", finish ? json(finish) : json(nullptr)}};
    json payload = {{"id", who_.id},       {"object", "text_completion"}, {"created", who_.created},
                    {"model", who_.model}, {"system_fingerprint", "hearth"}, {"choices", json::array({c})}};
    if (includeUsage_) payload["usage"] = nullptr;
    return OpenAiFormat::sse(payload);
}

std::string OpenAiCompletionStream::echoOnce(int choice) {
    if (started_[static_cast<size_t>(choice)]) return {};
    started_[static_cast<size_t>(choice)] = true;
    const auto prompt = static_cast<size_t>(choice / perPrompt_);
    if (prompt >= echo_.size() || echo_[prompt].empty()) return {};
    return chunk(choice, echo_[prompt], nullptr, nullptr);
}

std::string OpenAiCompletionStream::onEvent(const ChoiceEvent& e, const ResponseAccumulator&) {
    if (e.choice < 0 || e.choice >= static_cast<int>(started_.size())) return {};
    switch (e.kind) {
    case ChoiceEvent::Kind::Tokens: {
        std::string out = echoOnce(e.choice);
        const bool withLogprobs = logprobs_ >= 0 && !e.logprobs.empty();
        if (e.text.empty() && !withLogprobs) return out;
        size_t& offset = offsets_[static_cast<size_t>(e.choice)];
        json lp = withLogprobs ? OpenAiFormat::completionLogprobs(e.logprobs, tok_, logprobs_, offset) : json(nullptr);
        for (const auto& l : e.logprobs) offset += tok_.tokenPiece(l.token).size();
        return out + chunk(e.choice, e.text, std::move(lp), nullptr);
    }
    case ChoiceEvent::Kind::Finished:
        return echoOnce(e.choice) + chunk(e.choice, "", nullptr, OpenAiFormat::finishReason(e.reason));
    case ChoiceEvent::Kind::Failed: return OpenAiFormat::sse(ApiError::fromEngine(e.error).openAiBody());
    }
    return {};
}

std::string OpenAiCompletionStream::finish(const ResponseAccumulator& all) {
    std::string out;
    if (includeUsage_) {
        json payload = {{"id", who_.id},       {"object", "text_completion"},  {"created", who_.created},
                        {"model", who_.model}, {"system_fingerprint", "hearth"}, {"choices", json::array()},
                        {"usage", OpenAiFormat::usage(all)}};
        out += OpenAiFormat::sse(payload);
    }
    return out + "data: [DONE]\n\n";
}

}  // namespace hearth::app::server
