#pragma once
// One message of a conversation.
// Invariants: id is a UUID string; position orders the messages of one conversation (0, 1, ...,
// no two equal); role is "system", "user" or "assistant"; the token counts and tokensPerSecond
// are 0 for messages that were not generated.
#include <QDateTime>
#include <QString>

namespace hearth::app {

struct ChatMessage {
    QString id;
    QString conversationId;
    int position = 0;
    QString role;
    QString content;
    int promptTokens = 0;
    int completionTokens = 0;
    double tokensPerSecond = 0;
    QString finishReason;  // "stop", "length", "cancelled", ... or empty
    QDateTime createdAt;
};

}  // namespace hearth::app
