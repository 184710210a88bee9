#include "server/OllamaStream.h"

#include "server/OllamaFormat.h"

namespace hearth::app::server {

OllamaStream::OllamaStream(std::string model, bool chat, const std::vector<TokenId>* promptTokens)
    : model_(std::move(model)), chat_(chat), prompt_(promptTokens ? *promptTokens : std::vector<TokenId>{}) {}

std::string OllamaStream::onEvent(const ChoiceEvent& e, const ResponseAccumulator&) {
    if (e.choice != 0) return {};
    if (e.kind == ChoiceEvent::Kind::Tokens)
        return e.text.empty() ? std::string() : OllamaFormat::line(OllamaFormat::partial(model_, chat_, e.text));
    if (e.kind == ChoiceEvent::Kind::Failed) {
        failed_ = true;
        return OllamaFormat::line({{"error", e.error.message}});
    }
    return {};
}

std::string OllamaStream::finish(const ResponseAccumulator& all) {
    if (failed_) return {};
    std::vector<TokenId> context = prompt_;
    if (all.choices() > 0) context.insert(context.end(), all.choice(0).tokens.begin(), all.choice(0).tokens.end());
    return OllamaFormat::line(OllamaFormat::final(model_, chat_, "", all, chat_ ? nullptr : &context));
}

}  // namespace hearth::app::server
