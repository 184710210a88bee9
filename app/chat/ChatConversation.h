#pragma once
// A conversation as the chat store keeps it.
// Invariants: id is a UUID string (no braces) that never changes; sampling is a JSON object of
// sampling settings ({"temperature": 0.7, "top_p": 0.9, ...}, keys as the API server names them);
// updatedAt >= createdAt and moves with every change to the conversation or its messages.
#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace hearth::app {

struct ChatConversation {
    QString id;
    QString title;
    QString model;         // the model name or path last used in it
    QString systemPrompt;
    QJsonObject sampling;
    QDateTime createdAt;
    QDateTime updatedAt;
    int messageCount = 0;
};

}  // namespace hearth::app
