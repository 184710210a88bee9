#pragma once
// Turns a chat-store conversation into a GenerationRequest for the loaded model through
// hearth::ChatFormatter (the one conversation-to-prompt path shared with the API server and
// hearth-cli: the model's template or the fallback transcript, special tokens parsed, BOS once,
// the end-of-turn stop tokens and strings), plus the conversation's sampling settings. A
// conversation longer than the model's context loses its oldest turns (the system prompt and the
// latest message stay), keeping room for a reply of min(max_tokens, context / 2) tokens; the reply
// is capped at what is left of the context.
//
// Invariant: formatter_ was created for backend_ (re-created when another model is loaded).
// build() needs a non-null backend.

#include <QList>
#include <QString>
#include <optional>

#include "hearth/chat_formatter.h"
#include "hearth/engine.h"
#include "hearth/result.h"
#include "host/ChatSampling.h"
#include "host/HostMetaTypes.h"

namespace hearth::app {

class InferenceBackend;

struct ChatTurn {
    QString role;  // "system", "user", "assistant"
    QString content;
};

class ChatPromptBuilder {
public:
    // TemplateError when the model's template fails to parse or render (the message says why).
    Result<GenerationRequest> build(const SharedBackend& backend, const QString& systemPrompt,
                                    const QList<ChatTurn>& turns, const ChatSampling& sampling, const QString& user);
    // How many of the oldest turns the last build() left out to fit the model's context.
    int droppedTurns() const { return dropped_; }

private:
    std::weak_ptr<InferenceBackend> backend_;
    std::optional<ChatFormatter> formatter_;
    int dropped_ = 0;
};

}  // namespace hearth::app
