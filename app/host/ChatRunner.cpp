#include "host/ChatRunner.h"

#include "chat/ChatStore.h"
#include "host/ChatPromptBuilder.h"
#include "host/ChatSampling.h"
#include "host/EngineHost.h"
#include "host/InferenceBackend.h"

namespace hearth::app {
namespace {
constexpr qint64 kSaveEveryMs = 1000;
}

double LiveReply::tokensPerSecond() const {
    if (firstTokenMs < 0 || completionTokens < 2) return 0;
    const double ms = double(sinceStart.elapsed() - firstTokenMs);
    return ms > 0 ? (completionTokens - 1) * 1000.0 / ms : 0;
}

ChatRunner::ChatRunner(ChatStore& store, EngineHost& engine, QObject* parent)
    : QObject(parent), store_(store), engine_(engine) {
    connect(&engine_, &EngineHost::tokens, this, &ChatRunner::onTokens);
    connect(&engine_, &EngineHost::finished, this, &ChatRunner::onFinished);
    connect(&engine_, &EngineHost::failed, this, &ChatRunner::onFailed);
}

const LiveReply* ChatRunner::live(const QString& conversationId) const {
    auto it = byConversation_.constFind(conversationId);
    return it == byConversation_.constEnd() ? nullptr : &it.value();
}

Status ChatRunner::send(const QString& conversationId, const QString& text) {
    if (text.trimmed().isEmpty()) return makeError(ErrorCode::InvalidArgument, "the message is empty");
    if (isGenerating(conversationId))
        return makeError(ErrorCode::InvalidArgument, "this conversation is still generating a reply");
    if (!engine_.isReady()) return makeError(ErrorCode::Unavailable, "no model is loaded");
    auto appended = store_.appendMessage(conversationId, "user", text);
    if (!appended) return appended.error();
    return startReply(conversationId);
}

Status ChatRunner::regenerate(const QString& conversationId) {
    if (isGenerating(conversationId))
        return makeError(ErrorCode::InvalidArgument, "this conversation is still generating a reply");
    if (!engine_.isReady()) return makeError(ErrorCode::Unavailable, "no model is loaded");
    auto messages = store_.messages(conversationId);
    if (!messages) return messages.error();
    int lastUser = -1;
    for (const ChatMessage& m : *messages)
        if (m.role == "user") lastUser = m.position;
    if (lastUser < 0) return makeError(ErrorCode::InvalidArgument, "there is no message to reply to");
    HEARTH_TRY(store_.truncate(conversationId, lastUser + 1));
    return startReply(conversationId);
}

Status ChatRunner::editAndResend(const QString& conversationId, int position, const QString& text) {
    if (text.trimmed().isEmpty()) return makeError(ErrorCode::InvalidArgument, "the message is empty");
    if (isGenerating(conversationId))
        return makeError(ErrorCode::InvalidArgument, "this conversation is still generating a reply");
    if (!engine_.isReady()) return makeError(ErrorCode::Unavailable, "no model is loaded");
    auto messages = store_.messages(conversationId);
    if (!messages) return messages.error();
    const bool isUser = position >= 0 && position < messages->size() && (*messages)[position].role == "user";
    if (!isUser) return makeError(ErrorCode::InvalidArgument, "only your own messages can be edited");
    HEARTH_TRY(store_.truncate(conversationId, position));
    auto appended = store_.appendMessage(conversationId, "user", text);
    if (!appended) return appended.error();
    return startReply(conversationId);
}

Status ChatRunner::startReply(const QString& conversationId) {
    auto conversation = store_.conversation(conversationId);
    if (!conversation) return makeError(ErrorCode::InvalidArgument, "no such conversation");
    auto messages = store_.messages(conversationId);
    if (!messages) return messages.error();
    QList<ChatTurn> turns;
    for (const ChatMessage& m : *messages)
        if (m.role != "system") turns.append({m.role, m.content});
    const SharedBackend backend = engine_.sharedBackend();
    if (!backend) return makeError(ErrorCode::Unavailable, "no model is loaded");
    auto request = prompts_.build(backend, conversation->systemPrompt, turns,
                                            ChatSampling::fromJson(conversation->sampling), conversationId);
    if (!request) return request.error();

    auto reply = store_.appendMessage(conversationId, "assistant", QString());
    if (!reply) return reply.error();
    auto submitted = engine_.submit(std::move(*request));
    if (!submitted) {
        (void)store_.truncate(conversationId, reply->position);
        return submitted.error();
    }
    const QString model = engine_.modelName();
    if (conversation->model != model) (void)store_.setModel(conversationId, model);

    LiveReply live;
    live.conversationId = conversationId;
    live.messageId = reply->id;
    live.position = reply->position;
    live.request = *submitted;
    live.sinceStart.start();
    byConversation_.insert(conversationId, live);
    byRequest_.insert(*submitted, conversationId);
    emit replyStarted(conversationId, reply->id);
    if (prompts_.droppedTurns() > 0) emit historyTrimmed(conversationId, prompts_.droppedTurns());
    return Status::success();
}

void ChatRunner::stop(const QString& conversationId) {
    if (const LiveReply* r = live(conversationId)) engine_.cancel(r->request);
}

void ChatRunner::save(const LiveReply& r, const QString& finishReason, int promptTokens, double tokensPerSecond) {
    ChatMessage m;
    m.id = r.messageId;
    m.conversationId = r.conversationId;
    m.position = r.position;
    m.role = "assistant";
    m.content = r.text;
    m.promptTokens = promptTokens;
    m.completionTokens = r.completionTokens;
    m.tokensPerSecond = tokensPerSecond;
    m.finishReason = finishReason;
    (void)store_.updateMessage(m);  // a failed write is reported by the store's writeFailed
}

void ChatRunner::onTokens(quint64 id, const QString& delta, int tokenCount) {
    auto c = byRequest_.constFind(id);
    if (c == byRequest_.constEnd()) return;  // another client's request (the API server)
    LiveReply& r = byConversation_[c.value()];
    if (r.firstTokenMs < 0 && tokenCount > 0) r.firstTokenMs = r.sinceStart.elapsed();
    r.text += delta;
    r.completionTokens += tokenCount;
    if (r.sinceStart.elapsed() - r.lastSaveMs >= kSaveEveryMs) {
        r.lastSaveMs = r.sinceStart.elapsed();
        save(r, QString(), 0, r.tokensPerSecond());
    }
    emit replyUpdated(r.conversationId, r.messageId);
}

void ChatRunner::onFinished(quint64 id, FinishReason reason, const Usage& usage) {
    auto c = byRequest_.constFind(id);
    if (c == byRequest_.constEnd()) return;
    LiveReply r = byConversation_.value(c.value());
    if (usage.completionTokens > 0) r.completionTokens = usage.completionTokens;
    // Decode speed: the tokens after the first over the time after the first.
    const double decodeMs = usage.totalMs - usage.ttftMs;
    const double tps = decodeMs > 0 && r.completionTokens > 1 ? (r.completionTokens - 1) * 1000.0 / decodeMs
                                                              : r.tokensPerSecond();
    forget(id);
    save(r, QString::fromLatin1(finishReasonName(reason)), usage.promptTokens, tps);
    emit replyFinished(r.conversationId, r.messageId);
}

void ChatRunner::onFailed(quint64 id, const QString& message) {
    auto c = byRequest_.constFind(id);
    if (c == byRequest_.constEnd()) return;
    LiveReply r = byConversation_.value(c.value());
    forget(id);
    // A reply that failed before its first word leaves no empty message behind.
    if (r.text.isEmpty())
        (void)store_.truncate(r.conversationId, r.position);
    else
        save(r, QStringLiteral("error"), 0, r.tokensPerSecond());
    emit replyFailed(r.conversationId, message);
    emit replyFinished(r.conversationId, r.messageId);
}

void ChatRunner::forget(quint64 request) {
    const QString conversation = byRequest_.take(request);
    byConversation_.remove(conversation);
}

}  // namespace hearth::app
