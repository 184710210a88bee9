#include "server/OpenAiFormat.h"

#include <QRandomGenerator>
#include <chrono>

namespace hearth::app::server {
namespace {

using nlohmann::json;

json bytesOf(const std::string& s) {
    json b = json::array();
    for (unsigned char c : s) b.push_back(static_cast<int>(c));
    return b;
}

}  // namespace

ResponseIdentity OpenAiFormat::identity(const std::string& prefix, const std::string& model) {
    static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::string id = prefix;
    for (int i = 0; i < 24; ++i) id += kAlphabet[QRandomGenerator::global()->bounded(62)];
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return {id, std::chrono::duration_cast<std::chrono::seconds>(now).count(), model};
}

const char* OpenAiFormat::finishReason(FinishReason r) {
    return r == FinishReason::Length ? "length" : "stop";
}

std::string OpenAiFormat::dump(const json& payload) {
    return payload.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string OpenAiFormat::sse(const json& payload) { return "data: " + dump(payload) + "\n\n"; }

json OpenAiFormat::usage(const ResponseAccumulator& acc) {
    const int prompt = acc.promptTokens(), completion = acc.completionTokens();
    return {{"prompt_tokens", prompt},
            {"completion_tokens", completion},
            {"total_tokens", prompt + completion},
            {"prompt_tokens_details", {{"cached_tokens", acc.cachedPromptTokens()}}}};
}

json OpenAiFormat::chatLogprobs(const std::vector<TokenLogprob>& lps, const Tokenizer& tok, int top) {
    json content = json::array();
    for (const auto& lp : lps) {
        const std::string piece = tok.tokenPiece(lp.token);
        json alts = json::array();
        for (size_t i = 0; i < lp.top.size() && static_cast<int>(i) < top; ++i) {
            const std::string p = tok.tokenPiece(lp.top[i].first);
            alts.push_back({{"token", p}, {"logprob", lp.top[i].second}, {"bytes", bytesOf(p)}});
        }
        content.push_back({{"token", piece}, {"logprob", lp.logprob}, {"bytes", bytesOf(piece)}, {"top_logprobs", alts}});
    }
    return {{"content", content}, {"refusal", nullptr}};
}

json OpenAiFormat::completionLogprobs(const std::vector<TokenLogprob>& lps, const Tokenizer& tok, int top, size_t offset) {
    json tokens = json::array(), values = json::array(), tops = json::array(), offsets = json::array();
    for (const auto& lp : lps) {
        const std::string piece = tok.tokenPiece(lp.token);
        tokens.push_back(piece);
        values.push_back(lp.logprob);
        json alts = json::object();
        for (size_t i = 0; i < lp.top.size() && static_cast<int>(i) < top; ++i)
            alts[tok.tokenPiece(lp.top[i].first)] = lp.top[i].second;
        tops.push_back(alts);
        offsets.push_back(offset);
        offset += piece.size();
    }
    return {{"tokens", tokens}, {"token_logprobs", values}, {"top_logprobs", tops}, {"text_offset", offsets}};
}

json OpenAiFormat::chatResponse(const ResponseIdentity& who, const ResponseAccumulator& acc, bool logprobs,
                                int topLogprobs, const Tokenizer& tok) {
    json choices = json::array();
    for (int i = 0; i < acc.choices(); ++i) {
        const ChoiceState& c = acc.choice(i);
        choices.push_back({{"index", i},
                           {"message", {{"role", "assistant"}, {"content", c.text}, {"refusal", nullptr}}},
                           {"logprobs", logprobs ? chatLogprobs(c.logprobs, tok, topLogprobs) : json(nullptr)},
                           {"finish_reason", finishReason(c.reason)}});
    }
    return {{"id", who.id},           {"object", "chat.completion"}, {"created", who.created},
            {"model", who.model},     {"choices", choices},          {"usage", usage(acc)},
            {"system_fingerprint", "hearth"}};
}

json OpenAiFormat::completionResponse(const ResponseIdentity& who, const ResponseAccumulator& acc, int logprobs,
                                      const std::vector<std::string>& echo, int choicesPerPrompt, const Tokenizer& tok) {
    json choices = json::array();
    for (int i = 0; i < acc.choices(); ++i) {
        const ChoiceState& c = acc.choice(i);
        const auto prompt = static_cast<size_t>(i / std::max(1, choicesPerPrompt));
        const std::string prefix = prompt < echo.size() ? echo[prompt] : std::string();
        choices.push_back({{"index", i},
                           {"text", prefix + c.text},
                           {"logprobs", logprobs >= 0 ? completionLogprobs(c.logprobs, tok, logprobs, 0) : json(nullptr)},
                           {"finish_reason", finishReason(c.reason)}});
    }
    return {{"id", who.id},       {"object", "text_completion"}, {"created", who.created},
            {"model", who.model}, {"choices", choices},          {"usage", usage(acc)},
            {"system_fingerprint", "hearth"}};
}

json OpenAiFormat::modelObject(const ServedModel& model) {
    return {{"id", model.id()},
            {"object", "model"},
            {"created", model.createdUnix()},
            {"owned_by", "hearth"},
            {"context_length", model.contextLength()},
            {"architecture", model.info().architecture}};
}

}  // namespace hearth::app::server
