#include "chat/ChatStore.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <algorithm>

#include "chat/ChatSchema.h"
#include "core/Database.h"
#include "core/SqlWriter.h"

namespace hearth::app {
namespace {

qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }
QDateTime fromMs(qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC); }
QString newId() { return QUuid::createUuid().toString(QUuid::WithoutBraces); }
QString jsonText(const QJsonObject& o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); }

Error unknownConversation(const QString& id) {
    return makeError(ErrorCode::InvalidArgument, ("no conversation " + id).toStdString());
}

// The words of a search, as FTS5 prefix terms: "foo"* "bar"* (quotes keep FTS syntax out).
QString ftsQuery(const QString& text) {
    static const QRegularExpression separators(R"([^\p{L}\p{N}_]+)");
    QStringList terms;
    for (const QString& word : text.split(separators, Qt::SkipEmptyParts))
        terms << "\"" + QString(word).replace("\"", "\"\"") + "\"*";
    return terms.join(' ');
}

QString likePattern(const QString& text) {
    QString escaped = text;
    escaped.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    return "%" + escaped + "%";
}

// An excerpt of `content` around the first match of `needle`, the match in [ ].
QString excerpt(const QString& content, const QString& needle) {
    const int at = content.indexOf(needle, 0, Qt::CaseInsensitive);
    if (at < 0) return content.left(80);
    const int from = std::max(0, at - 30);
    QString out = from > 0 ? QStringLiteral("…") : QString();
    out += content.mid(from, at - from) + "[" + content.mid(at, needle.size()) + "]";
    out += content.mid(at + needle.size(), 40);
    if (at + needle.size() + 40 < content.size()) out += QStringLiteral("…");
    return out;
}

}  // namespace

ChatStore::ChatStore(QObject* parent) : QObject(parent), pending_(std::make_shared<std::atomic<int>>(0)) {
    qRegisterMetaType<SqlBatch>();
}

ChatStore::~ChatStore() { close(); }

Status ChatStore::open(const QString& databasePath) {
    close();
    const QString name = Database::uniqueConnectionName("chat");
    if (auto db = Database::open(databasePath, name, chatSchema()); !db) return db.error();
    connection_ = name;
    Status loaded = setupFullText();
    if (loaded) loaded = loadConversations();
    if (!loaded) {
        close();
        return loaded;
    }
    writerThread_ = std::make_unique<WorkerThread>("hearth-chat-writer");
    writer_ = writerThread_->start(new SqlWriter(pending_));
    Status opened;
    QMetaObject::invokeMethod(
        writer_, [&] { opened = writer_->openHere(databasePath, chatSchema()); }, Qt::BlockingQueuedConnection);
    if (!opened) {
        close();
        return opened;
    }
    connect(this, &ChatStore::writeRequested, writer_, &SqlWriter::write, Qt::QueuedConnection);
    connect(writer_, &SqlWriter::failed, this, &ChatStore::writeFailed, Qt::QueuedConnection);
    return Status::success();
}

Status ChatStore::loadConversations() {
    QSqlQuery q(QSqlDatabase::database(connection_));
    if (!q.exec("SELECT c.id, c.title, c.model, c.system_prompt, c.settings_json, c.created_at, c.updated_at, "
                "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id), "
                "(SELECT COALESCE(MAX(position) + 1, 0) FROM messages m WHERE m.conversation_id = c.id) "
                "FROM conversations c"))
        return Database::errorFrom(q, "read conversations");
    while (q.next()) {
        ChatConversation c;
        c.id = q.value(0).toString();
        c.title = q.value(1).toString();
        c.model = q.value(2).toString();
        c.systemPrompt = q.value(3).toString();
        c.sampling = QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object();
        c.createdAt = fromMs(q.value(5).toLongLong());
        c.updatedAt = fromMs(q.value(6).toLongLong());
        c.messageCount = q.value(7).toInt();
        conversations_.insert(c.id, c);
        nextPosition_.insert(c.id, q.value(8).toInt());
    }
    return Status::success();
}

Status ChatStore::setupFullText() {
    QSqlDatabase db = QSqlDatabase::database(connection_);
    QSqlQuery q(db);
    const bool existed = q.exec("SELECT 1 FROM sqlite_master WHERE name = 'message_fts'") && q.next();
    q.finish();
    // A SQLite built without FTS5 fails here; search then falls back to LIKE.
    fts_ = Database::exec(db, "CREATE VIRTUAL TABLE IF NOT EXISTS message_fts USING fts5("
                              "content, content='messages', content_rowid='seq')").ok();
    if (!fts_) return Status::success();
    HEARTH_TRY(Database::exec(db, "CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN "
                                  "INSERT INTO message_fts(rowid, content) VALUES (new.seq, new.content); END"));
    HEARTH_TRY(Database::exec(db, "CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN "
                                  "INSERT INTO message_fts(message_fts, rowid, content) "
                                  "VALUES ('delete', old.seq, old.content); END"));
    HEARTH_TRY(Database::exec(db, "CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE OF content ON "
                                  "messages BEGIN INSERT INTO message_fts(message_fts, rowid, content) "
                                  "VALUES ('delete', old.seq, old.content); "
                                  "INSERT INTO message_fts(rowid, content) VALUES (new.seq, new.content); END"));
    if (!existed) HEARTH_TRY(Database::exec(db, "INSERT INTO message_fts(message_fts) VALUES ('rebuild')"));
    return Status::success();
}

void ChatStore::close() {
    if (writerThread_) {
        flush();
        writerThread_.reset();  // joins; the writer closes its connection on its thread
        writer_ = nullptr;
    }
    conversations_.clear();
    nextPosition_.clear();
    if (!connection_.isEmpty()) Database::close(connection_);
    connection_.clear();
}

void ChatStore::flush() {
    if (!writer_ || pending_->load() == 0) return;
    // Batches run in posting order, so once this no-op has run every earlier batch has finished.
    QMetaObject::invokeMethod(writer_, [] {}, Qt::BlockingQueuedConnection);
}

void ChatStore::post(SqlBatch batch) {
    pending_->fetch_add(1);
    emit writeRequested(batch);
}

void ChatStore::touch(const QString& id, SqlBatch& batch) {
    const qint64 now = nowMs();
    conversations_[id].updatedAt = fromMs(now);
    batch.add("UPDATE conversations SET updated_at = ? WHERE id = ?", {now, id});
}

Status ChatStore::requireConversation(const QString& id) const {
    if (connection_.isEmpty()) return makeError(ErrorCode::InvalidArgument, "the chat store is not open");
    if (!conversations_.contains(id)) return unknownConversation(id);
    return Status::success();
}

QList<ChatConversation> ChatStore::conversations() const {
    QList<ChatConversation> out = conversations_.values();
    std::stable_sort(out.begin(), out.end(),
                     [](const ChatConversation& a, const ChatConversation& b) { return a.updatedAt > b.updatedAt; });
    return out;
}

std::optional<ChatConversation> ChatStore::conversation(const QString& id) const {
    auto it = conversations_.find(id);
    if (it == conversations_.end()) return std::nullopt;
    return *it;
}

Result<ChatConversation> ChatStore::createConversation(const QString& title, const QString& model,
                                                       const QString& systemPrompt, const QJsonObject& sampling) {
    if (connection_.isEmpty()) return makeError(ErrorCode::InvalidArgument, "the chat store is not open");
    ChatConversation c;
    c.id = newId();
    c.title = title.trimmed().isEmpty() ? tr("New chat") : title.trimmed();
    c.model = model;
    c.systemPrompt = systemPrompt;
    c.sampling = sampling;
    const qint64 now = nowMs();
    c.createdAt = c.updatedAt = fromMs(now);
    conversations_.insert(c.id, c);
    nextPosition_.insert(c.id, 0);
    SqlBatch batch;
    batch.add("INSERT INTO conversations (id, title, model, system_prompt, settings_json, created_at, updated_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?)",
              {c.id, c.title, Database::notNull(model), Database::notNull(systemPrompt), jsonText(sampling), now, now});
    post(batch);
    emit conversationAdded(c.id);
    return c;
}

Status ChatStore::rename(const QString& id, const QString& title) {
    HEARTH_TRY(requireConversation(id));
    if (title.trimmed().isEmpty()) return makeError(ErrorCode::InvalidArgument, "a conversation needs a title");
    conversations_[id].title = title.trimmed();
    SqlBatch batch;
    batch.add("UPDATE conversations SET title = ? WHERE id = ?", {title.trimmed(), id});
    touch(id, batch);
    post(batch);
    emit conversationChanged(id);
    return Status::success();
}

Status ChatStore::setSystemPrompt(const QString& id, const QString& prompt) {
    HEARTH_TRY(requireConversation(id));
    conversations_[id].systemPrompt = prompt;
    SqlBatch batch;
    batch.add("UPDATE conversations SET system_prompt = ? WHERE id = ?", {Database::notNull(prompt), id});
    touch(id, batch);
    post(batch);
    emit conversationChanged(id);
    return Status::success();
}

Status ChatStore::setSampling(const QString& id, const QJsonObject& sampling) {
    HEARTH_TRY(requireConversation(id));
    conversations_[id].sampling = sampling;
    SqlBatch batch;
    batch.add("UPDATE conversations SET settings_json = ? WHERE id = ?", {jsonText(sampling), id});
    touch(id, batch);
    post(batch);
    emit conversationChanged(id);
    return Status::success();
}

Status ChatStore::setModel(const QString& id, const QString& model) {
    HEARTH_TRY(requireConversation(id));
    conversations_[id].model = model;
    SqlBatch batch;
    batch.add("UPDATE conversations SET model = ? WHERE id = ?", {Database::notNull(model), id});
    touch(id, batch);
    post(batch);
    emit conversationChanged(id);
    return Status::success();
}

Status ChatStore::remove(const QString& id) {
    HEARTH_TRY(requireConversation(id));
    conversations_.remove(id);
    nextPosition_.remove(id);
    SqlBatch batch;
    batch.add("DELETE FROM conversations WHERE id = ?", {id});  // messages go with it (cascade)
    post(batch);
    emit conversationRemoved(id);
    return Status::success();
}

Result<ChatMessage> ChatStore::appendMessage(const QString& conversationId, const QString& role,
                                             const QString& content) {
    HEARTH_TRY(requireConversation(conversationId));
    if (role != "system" && role != "user" && role != "assistant")
        return makeError(ErrorCode::InvalidArgument, ("unknown message role: " + role).toStdString());
    ChatMessage m;
    m.id = newId();
    m.conversationId = conversationId;
    m.position = nextPosition_[conversationId]++;
    m.role = role;
    m.content = content;
    const qint64 now = nowMs();
    m.createdAt = fromMs(now);
    conversations_[conversationId].messageCount++;
    SqlBatch batch;
    batch.add("INSERT INTO messages (id, conversation_id, position, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)",
              {m.id, conversationId, m.position, role, Database::notNull(content), now});
    touch(conversationId, batch);
    post(batch);
    emit messagesChanged(conversationId);
    return m;
}

Status ChatStore::updateMessage(const ChatMessage& m) {
    HEARTH_TRY(requireConversation(m.conversationId));
    SqlBatch batch;
    batch.add("UPDATE messages SET content = ?, prompt_tokens = ?, completion_tokens = ?, tokens_per_second = ?, "
              "finish_reason = ? WHERE id = ? AND conversation_id = ?",
              {Database::notNull(m.content), m.promptTokens, m.completionTokens, m.tokensPerSecond,
               Database::notNull(m.finishReason), m.id, m.conversationId});
    touch(m.conversationId, batch);
    post(batch);
    emit messagesChanged(m.conversationId);
    return Status::success();
}

Status ChatStore::truncate(const QString& conversationId, int position) {
    HEARTH_TRY(requireConversation(conversationId));
    if (position < 0) return makeError(ErrorCode::InvalidArgument, "negative message position");
    int& next = nextPosition_[conversationId];
    if (position >= next) return Status::success();
    conversations_[conversationId].messageCount -= next - position;  // positions are dense
    next = position;
    SqlBatch batch;
    batch.add("DELETE FROM messages WHERE conversation_id = ? AND position >= ?", {conversationId, position});
    touch(conversationId, batch);
    post(batch);
    emit messagesChanged(conversationId);
    return Status::success();
}

Result<QList<ChatMessage>> ChatStore::messages(const QString& conversationId) {
    HEARTH_TRY(requireConversation(conversationId));
    flush();
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("SELECT id, position, role, content, prompt_tokens, completion_tokens, tokens_per_second, "
              "finish_reason, created_at FROM messages WHERE conversation_id = ? ORDER BY position");
    q.addBindValue(conversationId);
    if (!q.exec()) return Database::errorFrom(q, "read messages");
    QList<ChatMessage> out;
    while (q.next()) {
        ChatMessage m;
        m.id = q.value(0).toString();
        m.conversationId = conversationId;
        m.position = q.value(1).toInt();
        m.role = q.value(2).toString();
        m.content = q.value(3).toString();
        m.promptTokens = q.value(4).toInt();
        m.completionTokens = q.value(5).toInt();
        m.tokensPerSecond = q.value(6).toDouble();
        m.finishReason = q.value(7).toString();
        m.createdAt = fromMs(q.value(8).toLongLong());
        out.append(m);
    }
    return out;
}

Result<QList<ChatSearchHit>> ChatStore::search(const QString& text, int limit) {
    if (connection_.isEmpty()) return makeError(ErrorCode::InvalidArgument, "the chat store is not open");
    const QString needle = text.trimmed();
    QList<ChatSearchHit> hits;
    if (needle.isEmpty() || limit <= 0) return hits;
    for (const ChatConversation& c : conversations())
        if (c.title.contains(needle, Qt::CaseInsensitive) && hits.size() < limit)
            hits.append({c.id, c.title, {}, excerpt(c.title, needle)});
    flush();
    const QString query = ftsQuery(needle);
    if (!fts_ || query.isEmpty()) {
        auto more = searchMessagesLike(needle, limit - int(hits.size()));
        if (!more) return more.error();
        return hits + *more;
    }
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("SELECT m.id, m.conversation_id, c.title, snippet(message_fts, 0, '[', ']', '…', 12) "
              "FROM message_fts JOIN messages m ON m.seq = message_fts.rowid "
              "JOIN conversations c ON c.id = m.conversation_id "
              "WHERE message_fts MATCH ? ORDER BY rank LIMIT ?");
    q.addBindValue(query);
    q.addBindValue(limit - int(hits.size()));
    if (!q.exec()) return Database::errorFrom(q, "search messages");
    while (q.next())
        hits.append({q.value(1).toString(), q.value(2).toString(), q.value(0).toString(), q.value(3).toString()});
    return hits;
}

Result<QList<ChatSearchHit>> ChatStore::searchMessagesLike(const QString& text, int limit) {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("SELECT m.id, m.conversation_id, c.title, m.content FROM messages m "
              "JOIN conversations c ON c.id = m.conversation_id "
              "WHERE m.content LIKE ? ESCAPE '\\' ORDER BY c.updated_at DESC, m.position LIMIT ?");
    q.addBindValue(likePattern(text));
    q.addBindValue(limit);
    if (!q.exec()) return Database::errorFrom(q, "search messages");
    QList<ChatSearchHit> hits;
    while (q.next())
        hits.append({q.value(1).toString(), q.value(2).toString(), q.value(0).toString(),
                     excerpt(q.value(3).toString(), text)});
    return hits;
}

}  // namespace hearth::app
