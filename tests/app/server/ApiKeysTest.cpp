// API keys and the access log in server.sqlite: keys are shown once and stored only as salted
// hashes, names are unique among active keys, revocation reaches a running server's authenticator
// through ServerStore's refresh, access-log entries are written in batches and read back.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <thread>

#include "core/Database.h"
#include "server/AccessLog.h"
#include "server/ApiKeyStore.h"
#include "server/KeyAuthenticator.h"
#include "server/ServerSchema.h"
#include "server/ServerStore.h"
#include "server/UsageLimiter.h"

using namespace hearth;
using namespace hearth::app;
using namespace hearth::app::server;

class ApiKeysTest : public QObject {
    Q_OBJECT
private slots:
    void createListRevoke();
    void keysAreStoredHashed();
    void authenticatorChecksStoredAndFileKeys();
    void storeRefreshesKeysAndWritesTheLog();
    void damagedDatabaseIsAnError();
    void limiterCountsConcurrencyAndTokens();
};

namespace {

struct Db {
    QTemporaryDir dir;
    QString path = dir.filePath("server.sqlite");
    QString name = Database::uniqueConnectionName("keys-test");
    QSqlDatabase db;
    Db() {
        auto opened = Database::open(path, name, serverSchema());
        if (!opened) qFatal("open: %s", opened.error().toString().c_str());
        db = *opened;
    }
    ~Db() {
        db.close();
        db = QSqlDatabase();
        Database::close(name);
    }
};

}  // namespace

void ApiKeysTest::createListRevoke() {
    Db d;
    ApiKeyStore store(d.db);
    auto a = store.create("alice", {2, 1000});
    QVERIFY(a.ok());
    QVERIFY(ApiKeyStore::keyIdOf(a->key) == a->record.keyId);
    QCOMPARE(a->key.size(), size_t(60));
    QVERIFY(!store.create("alice").ok());  // active names are unique
    QVERIFY(!store.create("").ok());
    QVERIFY(!store.create(std::string(65, 'x')).ok());
    QVERIFY(!store.create("tab\there").ok());
    auto b = store.create("bob");
    QVERIFY(b.ok());
    QVERIFY(a->key != b->key);
    QCOMPARE(*store.activeCount(), 2);
    auto list = store.list();
    QVERIFY(list.ok());
    QCOMPARE(list->size(), size_t(2));
    QCOMPARE(QString::fromStdString((*list)[0].name), QString("alice"));
    QCOMPARE((*list)[0].limits.maxConcurrent, 2);
    QCOMPARE((*list)[0].limits.tokensPerMinute, int64_t(1000));
    QVERIFY(store.revoke("alice").ok());
    QVERIFY(!store.revoke("alice").ok());  // already revoked
    QVERIFY(store.revoke(b->record.keyId).ok());  // by id
    QCOMPARE(*store.activeCount(), 0);
    QCOMPARE(store.list(true)->size(), size_t(2));
    QCOMPARE(store.list(false)->size(), size_t(0));
    QVERIFY(store.create("alice").ok());  // the name is free again
}

void ApiKeysTest::keysAreStoredHashed() {
    Db d;
    ApiKeyStore store(d.db);
    auto a = store.create("alice");
    QVERIFY(a.ok());
    const std::string secret = a->key.substr(12);
    QFile f(d.path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray bytes = f.readAll();
    QFile wal(d.path + "-wal");
    if (wal.open(QIODevice::ReadOnly)) bytes += wal.readAll();
    QVERIFY(!bytes.contains(QByteArray::fromStdString(secret)));
    QVERIFY(!bytes.contains(QByteArray::fromStdString(a->key)));
    QCOMPARE(a->record.hash, ApiKeyStore::hashKey(a->record.salt, a->key));
    QCOMPARE(a->record.salt.size(), 16);
    QCOMPARE(a->record.hash.size(), 32);
}

void ApiKeysTest::authenticatorChecksStoredAndFileKeys() {
    Db d;
    ApiKeyStore store(d.db);
    auto a = store.create("alice", {3, 0});
    QVERIFY(a.ok());
    KeyAuthenticator auth;
    auth.setStoredKeys(*store.list(false));
    auth.setFileKeys({"plain-one", "plain-two"}, {0, 500});
    QCOMPARE(auth.keyCount(), size_t(3));
    auto who = auth.authenticate(a->key);
    QVERIFY(who);
    QCOMPARE(QString::fromStdString(who->name), QString("alice"));
    QCOMPARE(who->limits.maxConcurrent, 3);
    std::string wrong = a->key;
    wrong.back() = wrong.back() == '0' ? '1' : '0';
    QVERIFY(!auth.authenticate(wrong));
    QVERIFY(!auth.authenticate(""));
    QVERIFY(!auth.authenticate("hk_zzzzzzzz_" + std::string(48, '0')));
    auto f = auth.authenticate("plain-two");
    QVERIFY(f);
    QCOMPARE(QString::fromStdString(f->name), QString("file-key-2"));
    QCOMPARE(f->limits.tokensPerMinute, int64_t(500));
    QVERIFY(!auth.authenticate("plain-three"));
    QVERIFY(KeyAuthenticator::constantTimeEqual("abc", "abc"));
    QVERIFY(!KeyAuthenticator::constantTimeEqual("abc", "abd"));
    QVERIFY(!KeyAuthenticator::constantTimeEqual("abc", "ab"));
}

void ApiKeysTest::storeRefreshesKeysAndWritesTheLog() {
    QTemporaryDir dir;
    const QString path = dir.filePath("server.sqlite");
    auto auth = std::make_shared<KeyAuthenticator>();
    auto store = ServerStore::open(path, auth, 50);
    QVERIFY2(store.ok(), store.ok() ? "" : store.error().toString().c_str());
    QCOMPARE(auth->keyCount(), size_t(0));
    // `hearth-cli keys create` in another process: its own connection to the same file.
    std::string key;
    const QString cliConn = Database::uniqueConnectionName("cli");
    {
        auto db = Database::open(path, cliConn, serverSchema());
        QVERIFY(db.ok());
        ApiKeyStore cli(*db);
        key = cli.create("carol")->key;
        db->close();
    }
    Database::close(cliConn);
    QTRY_VERIFY_WITH_TIMEOUT(auth->authenticate(key).has_value(), 3000);
    {
        auto db = Database::open(path, cliConn, serverSchema());
        ApiKeyStore cli(*db);
        QVERIFY(cli.revoke("carol").ok());
        db->close();
    }
    Database::close(cliConn);
    QTRY_VERIFY_WITH_TIMEOUT(!auth->authenticate(key).has_value(), 3000);

    for (int i = 0; i < 25; ++i) {
        AccessLogEntry e;
        e.atMs = 1000 + i;
        e.keyName = "carol";
        e.client = "10.0.0.7";
        e.method = "POST";
        e.path = "/v1/chat/completions";
        e.model = "m";
        e.promptTokens = i;
        e.completionTokens = 2 * i;
        e.status = i % 5 == 0 ? 429 : 200;
        e.durationMs = 1.5;
        (*store)->log(e);
    }
    store->reset();  // flushes
    const QString readConn = Database::uniqueConnectionName("read");
    {
        auto db = Database::open(path, readConn, serverSchema());
        QVERIFY(db.ok());
        AccessLog log(*db);
        auto recent = log.recent(10);
        QVERIFY(recent.ok());
        QCOMPARE(recent->size(), size_t(10));
        QCOMPARE((*recent)[0].atMs, int64_t(1024));  // newest first
        QCOMPARE((*recent)[0].completionTokens, 48);
        QCOMPARE(QString::fromStdString((*recent)[0].client), QString("10.0.0.7"));
        QCOMPARE((*recent)[4].status, 429);
        QVERIFY(log.pruneBefore(1020).ok());
        QCOMPARE(log.recent(100)->size(), size_t(5));
        db->close();
    }
    Database::close(readConn);
}

void ApiKeysTest::damagedDatabaseIsAnError() {
    QTemporaryDir dir;
    const QString path = dir.filePath("server.sqlite");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, 'x'));
    f.close();
    auto store = ServerStore::open(path, std::make_shared<KeyAuthenticator>());
    QVERIFY(!store.ok());
}

void ApiKeysTest::limiterCountsConcurrencyAndTokens() {
    auto limiter = std::make_shared<UsageLimiter>();
    ApiError e;
    int retry = 0;
    const ApiKeyLimits limits{2, 100};
    auto s1 = limiter->acquire("a", limits, e, retry);
    auto s2 = limiter->acquire("a", limits, e, retry);
    QVERIFY(s1 && s2);
    QVERIFY(!limiter->acquire("a", limits, e, retry));
    QCOMPARE(e.status, 429);
    QCOMPARE(QString::fromStdString(e.code), QString("concurrency_limit_exceeded"));
    QVERIFY(limiter->acquire("b", limits, e, retry));  // other callers are not affected
    QCOMPARE(limiter->active("a"), 2);
    s1->setTokens(60);
    s1.reset();
    s2->setTokens(50);
    s2.reset();
    QCOMPARE(limiter->active("a"), 0);
    QCOMPARE(limiter->tokensLastMinute("a"), int64_t(110));
    QVERIFY(!limiter->acquire("a", limits, e, retry));
    QCOMPARE(QString::fromStdString(e.code), QString("rate_limit_exceeded"));
    QVERIFY(retry >= 1 && retry <= 61);
    QVERIFY(limiter->acquire("a", {0, 0}, e, retry));  // no limits: always admitted
}

QTEST_GUILESS_MAIN(ApiKeysTest)
#include "ApiKeysTest.moc"
