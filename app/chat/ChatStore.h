#pragma once
// Conversations and messages in SQLite: list, create, rename, delete, search (FTS5 when Qt's
// SQLite has it, else LIKE), a system prompt and sampling settings per conversation, token counts
// and tokens/s per message.
//
// Threads: a ChatStore lives on the GUI thread. Writes are turned into SqlBatches and applied on
// an owned worker thread (SqlWriter), each in one transaction, with the WAL journal, so a crash
// mid-write leaves the last committed state. Reads use the store's own connection; a read first
// waits for the writes already posted (flush), so it always sees them.
//
// Invariants: conversations() mirrors the table, newest update first; every mutation updates the
// mirror and emits its signal at once (the write follows on the worker); a failed write is
// reported by writeFailed and never leaves half a batch behind.

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>

#include "chat/ChatConversation.h"
#include "chat/ChatMessage.h"
#include "chat/ChatSearchHit.h"
#include "core/SqlBatch.h"
#include "core/WorkerThread.h"
#include "hearth/result.h"

namespace hearth::app {

class SqlWriter;

class ChatStore : public QObject {
    Q_OBJECT
public:
    explicit ChatStore(QObject* parent = nullptr);
    ~ChatStore() override;

    Status open(const QString& databasePath);
    void close();  // flushes pending writes first
    bool isOpen() const { return !connection_.isEmpty(); }
    bool hasFullTextSearch() const { return fts_; }

    QList<ChatConversation> conversations() const;
    std::optional<ChatConversation> conversation(const QString& id) const;

    Result<ChatConversation> createConversation(const QString& title, const QString& model = {},
                                                const QString& systemPrompt = {},
                                                const QJsonObject& sampling = {});
    Status rename(const QString& id, const QString& title);
    Status setSystemPrompt(const QString& id, const QString& prompt);
    Status setSampling(const QString& id, const QJsonObject& sampling);
    Status setModel(const QString& id, const QString& model);
    Status remove(const QString& id);

    // Appends a message at the end of the conversation.
    Result<ChatMessage> appendMessage(const QString& conversationId, const QString& role,
                                      const QString& content);
    // Rewrites a message's content and generation figures (streaming replies call this as text
    // arrives and once at the end). Identified by message.id.
    Status updateMessage(const ChatMessage& message);
    // Drops the messages at `position` and after (regenerate, edit-and-resend).
    Status truncate(const QString& conversationId, int position);

    Result<QList<ChatMessage>> messages(const QString& conversationId);
    // Messages and titles containing every word of `text` (prefix match with FTS5).
    Result<QList<ChatSearchHit>> search(const QString& text, int limit = 50);

    // Waits until every write posted so far has been committed (or has failed).
    void flush();

signals:
    void conversationAdded(const QString& id);
    void conversationChanged(const QString& id);
    void conversationRemoved(const QString& id);
    void messagesChanged(const QString& conversationId);
    void writeFailed(const QString& error);
    void writeRequested(const hearth::app::SqlBatch& batch);  // to the writer (queued)

private:
    Status requireConversation(const QString& id) const;
    void post(SqlBatch batch);
    void touch(const QString& id, SqlBatch& batch);
    Status setupFullText();
    Status loadConversations();
    Result<QList<ChatSearchHit>> searchMessagesLike(const QString& text, int limit);

    QString connection_;
    QMap<QString, ChatConversation> conversations_;
    QMap<QString, int> nextPosition_;
    std::shared_ptr<std::atomic<int>> pending_;
    std::unique_ptr<WorkerThread> writerThread_;
    SqlWriter* writer_ = nullptr;
    bool fts_ = false;
};

}  // namespace hearth::app
