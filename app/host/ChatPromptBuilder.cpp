#include "host/ChatPromptBuilder.h"

#include "host/InferenceBackend.h"

#include <algorithm>

namespace hearth::app {

Result<GenerationRequest> ChatPromptBuilder::build(const SharedBackend& backend, const QString& systemPrompt,
                                                   const QList<ChatTurn>& turns, const ChatSampling& sampling,
                                                   const QString& user) {
    if (backend_.lock() != backend || !formatter_) {
        auto created = ChatFormatter::create(backend->chatTemplate(), backend->tokenizer());
        if (!created) return created.error();
        formatter_.emplace(std::move(*created));
        backend_ = backend;
    }
    // Oldest turns go first when the conversation no longer fits the context next to the reply
    // (a leading assistant turn goes with its question); the latest message always stays.
    const int context = backend->contextLength();
    const int reserve = context > 0 ? std::clamp(sampling.maxTokens, 16, std::max(16, context / 2)) : 0;
    QList<ChatTurn> kept = turns;
    dropped_ = 0;
    std::optional<ChatPrompt> prompt;
    for (;;) {
        ChatTemplateInputs in;
        if (!systemPrompt.trimmed().isEmpty())
            in.messages.push_back({{"role", "system"}, {"content", systemPrompt.toStdString()}});
        for (const ChatTurn& t : kept)
            in.messages.push_back({{"role", t.role.toStdString()}, {"content", t.content.toStdString()}});
        in.addGenerationPrompt = true;
        auto formatted = formatter_->format(std::move(in));
        if (!formatted) return formatted.error();
        prompt = std::move(*formatted);
        if (context <= 0 || int(prompt->tokens.size()) + reserve <= context || kept.size() <= 1) break;
        kept.removeFirst();
        ++dropped_;
        while (kept.size() > 1 && kept.first().role != QLatin1String("user")) {
            kept.removeFirst();
            ++dropped_;
        }
    }

    GenerationRequest r;
    const int promptTokens = int(prompt->tokens.size());
    r.promptTokens = std::move(prompt->tokens);
    r.stop = std::move(prompt->stopStrings);
    r.stopTokens = std::move(prompt->stopTokens);
    r.sampling = sampling.params;
    // The reply cannot run past the end of the context.
    r.maxTokens = context > promptTokens ? std::min(sampling.maxTokens, context - promptTokens) : sampling.maxTokens;
    r.user = user.toStdString();  // fairness between chats
    return r;
}

}  // namespace hearth::app
