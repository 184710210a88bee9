#pragma once
// Runs the chat window's generations: appends the user's message, renders the conversation
// through the model's template, submits it to the engine host, streams the reply into an
// assistant message of the chat store, and finishes it with token counts and tokens/s. Several
// conversations may generate at once (one reply per conversation at a time).
//
// Threads: GUI thread only (the engine's callbacks arrive as the host's queued signals).
//
// Invariants: byConversation_ and byRequest_ index the same LiveReply set; a live reply's
// assistant message exists in the store from the moment it starts; its stored content is
// written at most once a second while streaming and exactly once at the end (text, counts,
// finish reason), so live() is the only up-to-the-token view of it.

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <optional>

#include "chat/ChatMessage.h"
#include "hearth/engine.h"
#include "hearth/result.h"
#include "host/ChatPromptBuilder.h"

namespace hearth::app {

class ChatStore;
class EngineHost;

struct LiveReply {
    QString conversationId;
    QString messageId;
    int position = 0;
    RequestId request = 0;
    QString text;
    int completionTokens = 0;
    QElapsedTimer sinceStart;
    qint64 firstTokenMs = -1;
    qint64 lastSaveMs = 0;

    double tokensPerSecond() const;
};

class ChatRunner : public QObject {
    Q_OBJECT
public:
    ChatRunner(ChatStore& store, EngineHost& engine, QObject* parent = nullptr);

    // Appends `text` as a user message and generates a reply.
    Status send(const QString& conversationId, const QString& text);
    // Drops the last reply (the messages after the last user message) and generates it again.
    Status regenerate(const QString& conversationId);
    // Replaces the user message at `position` (and everything after it) with `text` and
    // generates a reply to it.
    Status editAndResend(const QString& conversationId, int position, const QString& text);
    // Stops the conversation's reply; what was generated so far stays, marked "cancelled".
    void stop(const QString& conversationId);

    bool isGenerating(const QString& conversationId) const { return byConversation_.contains(conversationId); }
    int generatingCount() const { return int(byConversation_.size()); }
    const LiveReply* live(const QString& conversationId) const;

signals:
    void replyStarted(const QString& conversationId, const QString& messageId);
    void replyUpdated(const QString& conversationId, const QString& messageId);
    void replyFinished(const QString& conversationId, const QString& messageId);
    void replyFailed(const QString& conversationId, const QString& message);
    // The oldest `turns` messages did not fit the model's context and were left out of the prompt.
    void historyTrimmed(const QString& conversationId, int turns);

private:
    Status startReply(const QString& conversationId);
    void onTokens(quint64 id, const QString& delta, int tokenCount);
    void onFinished(quint64 id, hearth::FinishReason reason, const hearth::Usage& usage);
    void onFailed(quint64 id, const QString& message);
    void save(const LiveReply& reply, const QString& finishReason, int promptTokens, double tokensPerSecond);
    void forget(quint64 request);

    ChatStore& store_;
    EngineHost& engine_;
    QHash<QString, LiveReply> byConversation_;
    QHash<quint64, QString> byRequest_;  // request id -> conversation id
    ChatPromptBuilder prompts_;
};

}  // namespace hearth::app
