// ChatStore on a real SQLite file: CRUD, reopen, search, truncation, bad input, and a writer
// process killed mid-write (the database must open clean and hold only whole batches).
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "chat/ChatStore.h"

using namespace hearth::app;

namespace {
QString errorText(const hearth::Status& s) { return s.ok() ? QString() : QString::fromStdString(s.error().message); }

// The child side of crashMidWriteNeverCorrupts: writes until killed.
int runWriterChild(const QString& path) {
    ChatStore store;
    if (!store.open(path).ok()) return 3;
    auto c = store.createConversation("crash test");
    for (int i = 0;; ++i) {
        auto m = store.appendMessage(c->id, i % 2 ? "assistant" : "user", QString("message %1 ").arg(i).repeated(50));
        if (!m) return 4;
        m->completionTokens = i;
        m->content += "done";
        if (!store.updateMessage(*m).ok()) return 5;
        if (i == 20) {
            store.flush();
            std::fputs("ready\n", stdout);
            std::fflush(stdout);
        }
    }
}
}  // namespace

class ChatStoreTest : public QObject {
    Q_OBJECT
private slots:
    void createListRenameReopen();
    void messagesWithStatsPersist();
    void removeCascadesToMessages();
    void truncateForRegenerate();
    void searchFindsMessagesAndTitles();
    void badInputIsAnError();
    void corruptFileIsReported();
    void crashMidWriteNeverCorrupts();

private:
    QTemporaryDir dir_;
};

void ChatStoreTest::createListRenameReopen() {
    const QString db = dir_.filePath("crud.db");
    QString firstId, secondId;
    {
        ChatStore store;
        QVERIFY(store.open(db).ok());
        QSignalSpy added(&store, &ChatStore::conversationAdded);
        QSignalSpy changed(&store, &ChatStore::conversationChanged);
        auto a = store.createConversation("First", "stories260K", "Be brief.", QJsonObject{{"temperature", 0.7}});
        QVERIFY(a.ok());
        QTest::qWait(5);
        auto b = store.createConversation("  ");
        QVERIFY(b.ok());
        QCOMPARE(b->title, QString("New chat"));
        QCOMPARE(added.count(), 2);
        firstId = a->id;
        secondId = b->id;
        QCOMPARE(store.conversations().first().id, secondId);  // newest first
        QTest::qWait(5);
        QVERIFY(store.rename(firstId, "Renamed").ok());
        QVERIFY(store.setSampling(firstId, QJsonObject{{"temperature", 0.2}, {"top_p", 0.9}}).ok());
        QVERIFY(store.setModel(firstId, "coder-f16").ok());
        QCOMPARE(changed.count(), 3);
        QCOMPARE(store.conversations().first().id, firstId);  // touched last
    }
    ChatStore store;
    QVERIFY(store.open(db).ok());
    QCOMPARE(store.conversations().size(), 2);
    const ChatConversation c = *store.conversation(firstId);
    QCOMPARE(c.title, QString("Renamed"));
    QCOMPARE(c.systemPrompt, QString("Be brief."));
    QCOMPARE(c.model, QString("coder-f16"));
    QCOMPARE(c.sampling.value("temperature").toDouble(), 0.2);
    QCOMPARE(c.sampling.value("top_p").toDouble(), 0.9);
    QVERIFY(c.updatedAt >= c.createdAt);
    QCOMPARE(store.conversations().first().id, firstId);
}

void ChatStoreTest::messagesWithStatsPersist() {
    const QString db = dir_.filePath("messages.db");
    QString id;
    {
        ChatStore store;
        QVERIFY(store.open(db).ok());
        auto c = store.createConversation("Stats");
        id = c->id;
        QVERIFY(store.appendMessage(id, "user", "Once upon a time").ok());
        auto reply = store.appendMessage(id, "assistant", "");
        QVERIFY(reply.ok());
        QCOMPARE(reply->position, 1);
        // A streamed reply: several updates, the last with the figures.
        for (const char* partial : {"there", "there was", "there was a cat."}) {
            reply->content = partial;
            QVERIFY(store.updateMessage(*reply).ok());
        }
        reply->promptTokens = 5;
        reply->completionTokens = 17;
        reply->tokensPerSecond = 123.5;
        reply->finishReason = "stop";
        QVERIFY(store.updateMessage(*reply).ok());
        auto now = store.messages(id);  // sees the writes still in flight
        QVERIFY(now.ok());
        QCOMPARE(now->size(), 2);
        QCOMPARE(now->at(1).content, QString("there was a cat."));
    }
    ChatStore store;
    QVERIFY(store.open(db).ok());
    QCOMPARE(store.conversation(id)->messageCount, 2);
    auto messages = store.messages(id);
    QVERIFY(messages.ok());
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(0).role, QString("user"));
    QCOMPARE(messages->at(0).content, QString("Once upon a time"));
    const ChatMessage& r = messages->at(1);
    QCOMPARE(r.role, QString("assistant"));
    QCOMPARE(r.promptTokens, 5);
    QCOMPARE(r.completionTokens, 17);
    QCOMPARE(r.tokensPerSecond, 123.5);
    QCOMPARE(r.finishReason, QString("stop"));
    auto more = store.appendMessage(id, "user", "and then?");
    QCOMPARE(more->position, 2);
}

void ChatStoreTest::removeCascadesToMessages() {
    const QString db = dir_.filePath("remove.db");
    {
        ChatStore store;
        QVERIFY(store.open(db).ok());
        auto keep = store.createConversation("keep");
        auto drop = store.createConversation("drop");
        QVERIFY(store.appendMessage(keep->id, "user", "kept").ok());
        QVERIFY(store.appendMessage(drop->id, "user", "dropped").ok());
        QSignalSpy removed(&store, &ChatStore::conversationRemoved);
        QVERIFY(store.remove(drop->id).ok());
        QCOMPARE(removed.count(), 1);
        QVERIFY(!store.messages(drop->id).ok());
        QVERIFY(!store.remove(drop->id).ok());
    }
    QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "cascade");
    raw.setDatabaseName(db);
    QVERIFY(raw.open());
    {
        QSqlQuery q(raw);
        QVERIFY(q.exec("SELECT COUNT(*), MIN(content) FROM messages") && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QCOMPARE(q.value(1).toString(), QString("kept"));
    }
    raw.close();
    raw = QSqlDatabase();
    QSqlDatabase::removeDatabase("cascade");
}

void ChatStoreTest::truncateForRegenerate() {
    ChatStore store;
    QVERIFY(store.open(dir_.filePath("truncate.db")).ok());
    auto c = store.createConversation("regen");
    for (int i = 0; i < 4; ++i) QVERIFY(store.appendMessage(c->id, i % 2 ? "assistant" : "user", QString::number(i)).ok());
    QVERIFY(store.truncate(c->id, 2).ok());
    QCOMPARE(store.conversation(c->id)->messageCount, 2);
    auto again = store.appendMessage(c->id, "user", "edited");
    QCOMPARE(again->position, 2);
    auto messages = store.messages(c->id);
    QCOMPARE(messages->size(), 3);
    QCOMPARE(messages->at(2).content, QString("edited"));
    QVERIFY(!store.truncate(c->id, -1).ok());
}

void ChatStoreTest::searchFindsMessagesAndTitles() {
    ChatStore store;
    QVERIFY(store.open(dir_.filePath("search.db")).ok());
    QVERIFY(store.hasFullTextSearch());  // Debian's SQLite has FTS5
    auto a = store.createConversation("Python decorators");
    auto b = store.createConversation("Bedtime story");
    QVERIFY(store.appendMessage(a->id, "user", "How do I write a caching decorator in Python?").ok());
    auto reply = store.appendMessage(b->id, "assistant", "Once upon a time a little dragon lived in a cave.");
    QVERIFY(store.appendMessage(b->id, "user", "고양이 이야기를 해줘").ok());

    auto dragon = store.search("drag");  // prefix
    QVERIFY(dragon.ok());
    QCOMPARE(dragon->size(), 1);
    QCOMPARE(dragon->first().conversationId, b->id);
    QCOMPARE(dragon->first().messageId, reply->id);
    QVERIFY2(dragon->first().snippet.contains("[dragon]"), qPrintable(dragon->first().snippet));

    auto both = store.search("python decorator");
    QVERIFY(both.ok());
    QCOMPARE(both->size(), 2);  // the title and the message
    QVERIFY(both->first().messageId.isEmpty());

    auto korean = store.search("고양이");
    QVERIFY(korean.ok());
    QCOMPARE(korean->size(), 1);

    // The index follows updates and deletes.
    reply->content = "A knight rode out.";
    QVERIFY(store.updateMessage(*reply).ok());
    QCOMPARE(store.search("dragon")->size(), 0);
    QCOMPARE(store.search("knight")->size(), 1);
    QVERIFY(store.remove(b->id).ok());
    QCOMPARE(store.search("knight")->size(), 0);

    // Query syntax in user text is just text.
    for (const char* hostile : {"\"", "*", "AND OR NOT", "%_\\", "NEAR(", "'; DROP TABLE messages; --"}) {
        auto r = store.search(hostile);
        QVERIFY2(r.ok(), hostile);
    }
    QCOMPARE(store.search("   ")->size(), 0);
    QCOMPARE(store.search("caching")->size(), 1);
}

void ChatStoreTest::badInputIsAnError() {
    ChatStore store;
    QVERIFY(!store.createConversation("x").ok());  // not open
    QVERIFY(store.open(dir_.filePath("bad.db")).ok());
    QVERIFY(!store.appendMessage("no-such-id", "user", "hi").ok());
    auto c = store.createConversation("x");
    auto badRole = store.appendMessage(c->id, "wizard", "hi");
    QVERIFY(!badRole.ok());
    QVERIFY(!store.rename(c->id, "  ").ok());
    QVERIFY(!store.rename("missing", "t").ok());
    QVERIFY(errorText(store.setSystemPrompt("missing", "p")).contains("no conversation"));
}

void ChatStoreTest::corruptFileIsReported() {
    const QString db = dir_.filePath("corrupt.db");
    QFile f(db);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(8192, '\x42'));
    f.close();
    ChatStore store;
    auto s = store.open(db);
    QVERIFY(!s.ok());
    QCOMPARE(s.error().code, hearth::ErrorCode::Corrupt);
    QVERIFY(!store.isOpen());
}

void ChatStoreTest::crashMidWriteNeverCorrupts() {
    const QString db = dir_.filePath("crash.db");
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {"--chat-writer-child", db});
    QVERIFY(child.waitForStarted(5000));
    QVERIFY(child.waitForReadyRead(20000));
    QCOMPARE(child.readLine().trimmed(), QByteArray("ready"));
    QTest::qWait(150);  // let it write a while longer
    QCOMPARE(child.state(), QProcess::Running);
    ::kill(pid_t(child.processId()), SIGKILL);
    QVERIFY(child.waitForFinished(5000));

    ChatStore store;
    auto s = store.open(db);  // runs SQLite's integrity check
    QVERIFY2(s.ok(), qPrintable(errorText(s)));
    QCOMPARE(store.conversations().size(), 1);
    auto messages = store.messages(store.conversations().first().id);
    QVERIFY(messages.ok());
    QVERIFY(messages->size() > 20);
    for (int i = 0; i < messages->size(); ++i) {
        const ChatMessage& m = messages->at(i);
        QCOMPARE(m.position, i);  // dense: no half-written batch
        QVERIFY(m.content.startsWith(QString("message %1 ").arg(i)));
        // Each message's insert and update are separate batches: the last one may lack its update.
        if (i + 1 < messages->size()) QVERIFY(m.content.endsWith("done"));
    }
    QCOMPARE(store.search("done")->isEmpty(), false);
}

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc == 3 && QByteArray(argv[1]) == "--chat-writer-child") return runWriterChild(QString::fromLocal8Bit(argv[2]));
    ChatStoreTest test;
    return QTest::qExec(&test, argc, argv);
}
#include "ChatStoreTest.moc"
