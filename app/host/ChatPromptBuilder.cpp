#include "host/ChatPromptBuilder.h"

#include "host/InferenceBackend.h"

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
    ChatTemplateInputs in;
    if (!systemPrompt.trimmed().isEmpty())
        in.messages.push_back({{"role", "system"}, {"content", systemPrompt.toStdString()}});
    for (const ChatTurn& t : turns)
        in.messages.push_back({{"role", t.role.toStdString()}, {"content", t.content.toStdString()}});
    in.addGenerationPrompt = true;
    auto prompt = formatter_->format(std::move(in));
    if (!prompt) return prompt.error();

    GenerationRequest r;
    r.promptTokens = std::move(prompt->tokens);
    r.stop = std::move(prompt->stopStrings);
    r.stopTokens = std::move(prompt->stopTokens);
    r.sampling = sampling.params;
    r.maxTokens = sampling.maxTokens;
    r.user = user.toStdString();  // fairness between chats
    return r;
}

}  // namespace hearth::app
