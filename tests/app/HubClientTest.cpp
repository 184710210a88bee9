// HubClient against recorded hub JSON served by a loopback HTTP server (the hub base URL setting
// points at it): search, listings over two pages, config.json, tokens, and every error kind.
#include <QSignalSpy>
#include <QtTest>

#include "LoopbackHttpServer.h"
#include "downloads/HubDownload.h"
#include "hub/HubClient.h"
#include "hub/QuantGrouping.h"
#include "settings/AppSettings.h"

using namespace hearth::app;
using hearth::test::HttpRequest;
using hearth::test::HttpResponse;
using hearth::test::LoopbackHttpServer;

namespace {
QByteArray fixture(const QString& name) {
    QFile f(QString(HEARTH_APP_TEST_DATA) + "/hub/" + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Waits for a callback-style call to deliver its result.
template <class T>
HubResult<T> await(const std::function<void(QObject*, HubClient::Callback<T>)>& call, int timeoutMs = 10000) {
    std::optional<HubResult<T>> result;
    QObject context;
    call(&context, [&](HubResult<T> r) { result.emplace(std::move(r)); });
    (void)QTest::qWaitFor([&] { return result.has_value(); }, timeoutMs);
    return result.has_value() ? *result : HubResult<T>(HubError{HubError::Kind::Timeout, 0, "test timed out"});
}
}  // namespace

class HubClientTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void searchSendsTheQueryAndParses();
    void listsFilesAcrossPagesAndGroups();
    void fetchesConfigForKvEstimate();
    void tokenIsSentOnlyToTheHub();
    void httpErrorsAreValues();
    void badJsonIsAValue();
    void timeoutIsAValue();
    void connectionRefusedIsAValue();
    void invalidRepoIdIsRejected();
    void abortCancels();
    void urlsFollowTheSetting();

private:
    std::unique_ptr<LoopbackHttpServer> server_;
    std::unique_ptr<HubClient> hub_;
    QTemporaryDir dir_;
};

void HubClientTest::initTestCase() {
    QVERIFY(!fixture("search-llama-gguf.json").isEmpty());
    server_ = std::make_unique<LoopbackHttpServer>();
    QVERIFY(server_->listen());
    server_->setHandler([this](const HttpRequest& r) -> HttpResponse {
        const QByteArray path = r.path();
        if (path == "/api/models") return HttpResponse::json(fixture("search-llama-gguf.json"));
        if (path == "/api/models/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF/tree/main")
            return HttpResponse::json(fixture("tree-llama-3.1-8b-instruct.json"));
        if (path == "/api/models/bartowski/Qwen2.5-VL-72B-Instruct-GGUF/tree/main") {
            if (r.target.contains("cursor=page2")) return HttpResponse::json(fixture("tree-qwen2.5-vl-72b-page2.json"));
            return HttpResponse::json(fixture("tree-qwen2.5-vl-72b-page1.json"))
                .header("Link", "<" + server_->url().toString().toUtf8() +
                                    "/api/models/bartowski/Qwen2.5-VL-72B-Instruct-GGUF/tree/main?recursive=true&"
                                    "cursor=page2>; rel=\"next\"");
        }
        if (path == "/api/models/evil/redirect/tree/main")
            return HttpResponse::json("[]").header("Link", "<https://elsewhere.example/api/x>; rel=\"next\"");
        if (path == "/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json")
            return HttpResponse::json(fixture("config-llama-3.1-8b-instruct.json"));
        if (path.startsWith("/api/models/meta-llama/")) return HttpResponse::json(fixture("error-gated.json"), 401);
        if (path.startsWith("/api/models/broken/json/")) return HttpResponse::json("[{\"type\": \"file\", \"path\": ");
        if (path.startsWith("/api/models/broken/shape/")) return HttpResponse::json("{\"not\": \"an array\"}");
        if (path.startsWith("/api/models/broken/lfs/"))
            return HttpResponse::json("[{\"type\":\"file\",\"path\":\"a.gguf\",\"size\":1,\"lfs\":{\"oid\":\"xyz\",\"size\":1}}]");
        if (path.startsWith("/api/models/broken/unsafe/"))
            return HttpResponse::json("[{\"type\":\"file\",\"path\":\"../../etc/passwd\",\"size\":1}]");
        if (path.startsWith("/api/models/slow/")) {
            HttpResponse slow = HttpResponse::json("[]");
            slow.delayMs = 3000;
            return slow;
        }
        if (path.startsWith("/api/models/down/")) return HttpResponse::text(503, "upstream overloaded");
        return HttpResponse::json("{\"error\":\"Repository not found\"}", 404);
    });
}

void HubClientTest::init() {
    AppSettings settings(dir_.filePath("hub.ini"));
    QVERIFY(settings.setHubBaseUrl(server_->url()).ok());
    hub_ = std::make_unique<HubClient>();
    hub_->setBaseUrl(settings.hubBaseUrl());
    server_->clearRequests();
}

void HubClientTest::searchSendsTheQueryAndParses() {
    HubSearchQuery q;
    q.text = "llama 3.1";
    q.sort = HubSearchQuery::Sort::Likes;
    q.limit = 5;
    auto r = await<QList<HubModelSummary>>([&](QObject* c, auto done) { hub_->searchModels(q, c, done); });
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
    QCOMPARE(server_->requests().size(), 1);
    const QUrlQuery sent(QUrl::fromEncoded("http://x" + server_->requests().first().target));
    QCOMPARE(sent.queryItemValue("search", QUrl::FullyDecoded), QString("llama 3.1"));
    QCOMPARE(sent.queryItemValue("filter"), QString("gguf"));
    QCOMPARE(sent.queryItemValue("sort"), QString("likes"));
    QCOMPARE(sent.queryItemValue("direction"), QString("-1"));
    QCOMPARE(sent.queryItemValue("limit"), QString("5"));
    QVERIFY(server_->requests().first().header("authorization").isEmpty());
    QVERIFY(server_->requests().first().header("user-agent").startsWith("Hearth/"));
    QCOMPARE(r->size(), 5);
    const HubModelSummary& top = r->first();
    QCOMPARE(top.id, QString("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"));
    QCOMPARE(top.author, QString("bartowski"));
    QCOMPARE(top.downloads, qint64(183442));
    QCOMPARE(top.likes, qint64(239));
    QVERIFY(top.tags.contains("gguf"));
    QCOMPARE(top.pipelineTag, QString("text-generation"));
    QCOMPARE(top.createdAt, QDateTime(QDate(2024, 7, 23), QTime(15, 36, 34), Qt::UTC));
    QVERIFY(top.gated.isEmpty());
    QCOMPARE(r->last().gated, QString("manual"));
}

void HubClientTest::listsFilesAcrossPagesAndGroups() {
    auto llama = await<QList<HubFile>>([&](QObject* c, auto done) {
        hub_->listFiles("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", c, done);
    });
    QVERIFY2(llama.ok(), qPrintable(llama.ok() ? QString() : llama.error().message));
    QCOMPARE(llama->size(), 12);  // files only: the "f16" directory entry is not a file
    const HubFile& q4 = *std::find_if(llama->begin(), llama->end(),
                                      [](const HubFile& f) { return f.path.endsWith("Q4_K_M.gguf"); });
    QCOMPARE(q4.size, qint64(4920739232));
    QCOMPARE(q4.sha256.size(), 64);
    QVERIFY(q4.isLfs());
    const HubFile& readme = *std::find_if(llama->begin(), llama->end(),
                                          [](const HubFile& f) { return f.path == "README.md"; });
    QVERIFY(!readme.isLfs());
    const QList<QuantGroup> groups = QuantGrouping::group(*llama);
    QCOMPARE(groups.size(), 8);
    QCOMPARE(groups.first().quant, QString("Q2_K"));
    QCOMPARE(groups.last().quant, QString("F16"));
    QCOMPARE(groups.last().files.size(), 2);
    QCOMPARE(groups.last().totalBytes, qint64(9951435360) + qint64(6117455552));
    // What the Discover page hands the download manager for one part.
    const QString repo = "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF";
    const HubFile& part2 = groups.last().files[1];
    const DownloadRequest request = hubDownloadRequest(hub_->fileUrl(repo, part2.path), repo, part2, "/models");
    QCOMPARE(request.url, server_->url("/" + repo + "/resolve/main/" + part2.path));
    QCOMPARE(request.destination, "/models/" + repo + "/Meta-Llama-3.1-8B-Instruct-f16-00002-of-00002.gguf");
    QCOMPARE(request.expectedSize, qint64(6117455552));
    QCOMPARE(request.expectedSha256, part2.sha256);
    QCOMPARE(request.repoPath, part2.path);

    auto qwen = await<QList<HubFile>>([&](QObject* c, auto done) {
        hub_->listFiles("bartowski/Qwen2.5-VL-72B-Instruct-GGUF", c, done);
    });
    QVERIFY2(qwen.ok(), qPrintable(qwen.ok() ? QString() : qwen.error().message));
    QCOMPARE(server_->countRequests("/api/models/bartowski/Qwen2.5-VL-72B-Instruct-GGUF/tree/main"), 2);
    QCOMPARE(qwen->size(), 8);
    const QList<QuantGroup> vl = QuantGrouping::group(*qwen);
    QCOMPARE(vl.size(), 3);
    QCOMPARE(vl[0].quant, QString("Q4_K_M"));
    QCOMPARE(vl[0].files.size(), 3);
    QVERIFY(vl[0].complete);
    QCOMPARE(vl[1].quant, QString("Q8_0"));
    QVERIFY(!vl[1].complete);  // the listing lacks part 2 of 2
    QVERIFY(vl[2].projector);

    // A "next" link to another host is refused (it would leak the token and loop forever).
    auto evil = await<QList<HubFile>>([&](QObject* c, auto done) { hub_->listFiles("evil/redirect", c, done); });
    QVERIFY(!evil.ok());
    QCOMPARE(evil.error().kind, HubError::Kind::BadResponse);
}

void HubClientTest::fetchesConfigForKvEstimate() {
    auto config = await<QJsonObject>([&](QObject* c, auto done) {
        hub_->fetchConfig("meta-llama/Llama-3.1-8B-Instruct", c, done);
    });
    QVERIFY(config.ok());
    QCOMPARE(config->value("num_key_value_heads").toInt(), 8);
    auto missing = await<QJsonObject>([&](QObject* c, auto done) { hub_->fetchConfig("someone/no-config", c, done); });
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().httpStatus, 404);
}

void HubClientTest::tokenIsSentOnlyToTheHub() {
    hub_->setToken("hf_secret");
    auto r = await<QList<HubModelSummary>>([&](QObject* c, auto done) { hub_->searchModels({}, c, done); });
    QVERIFY(r.ok());
    QCOMPARE(server_->requests().last().header("authorization"), QByteArray("Bearer hf_secret"));
    QVERIFY(hub_->makeRequest(QUrl("https://cdn.example.org/file")).rawHeader("Authorization").isEmpty());
    QVERIFY(hub_->makeRequest(QUrl(server_->url().toString() + "/x")).hasRawHeader("Authorization"));
}

void HubClientTest::httpErrorsAreValues() {
    auto gated = await<QList<HubFile>>([&](QObject* c, auto done) {
        hub_->listFiles("meta-llama/Llama-3.2-3B-Instruct-QLORA_INT4_EO8-GGUF", c, done);
    });
    QVERIFY(!gated.ok());
    QCOMPARE(gated.error().kind, HubError::Kind::Http);
    QCOMPARE(gated.error().httpStatus, 401);
    QVERIFY(gated.error().needsToken());
    QVERIFY2(gated.error().message.contains("restricted"), qPrintable(gated.error().message));
    QVERIFY(gated.error().message.contains("access token"));
    auto notFound = await<QList<HubFile>>([&](QObject* c, auto done) { hub_->listFiles("nobody/nothing", c, done); });
    QCOMPARE(notFound.error().httpStatus, 404);
    QVERIFY(notFound.error().message.contains("Repository not found"));
    QVERIFY(!notFound.error().needsToken());
    auto down = await<QList<HubFile>>([&](QObject* c, auto done) { hub_->listFiles("down/repo", c, done); });
    QCOMPARE(down.error().httpStatus, 503);
    QVERIFY(down.error().message.contains("upstream overloaded"));
}

void HubClientTest::badJsonIsAValue() {
    for (const char* repo : {"broken/json", "broken/shape", "broken/lfs", "broken/unsafe"}) {
        auto r = await<QList<HubFile>>([&](QObject* c, auto done) { hub_->listFiles(repo, c, done); });
        QVERIFY2(!r.ok(), repo);
        QCOMPARE(r.error().kind, HubError::Kind::BadResponse);
        QVERIFY(!r.error().message.isEmpty());
    }
}

void HubClientTest::timeoutIsAValue() {
    hub_->setTimeoutMs(300);
    QElapsedTimer t;
    t.start();
    auto r = await<QList<HubFile>>([&](QObject* c, auto done) { hub_->listFiles("slow/repo", c, done); });
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, HubError::Kind::Timeout);
    QVERIFY(t.elapsed() < 2500);
}

void HubClientTest::connectionRefusedIsAValue() {
    QTcpServer probe;  // a port that was free a moment ago and has no listener now
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    hub_->setBaseUrl(QUrl(QString("http://127.0.0.1:%1").arg(port)));
    auto r = await<QList<HubModelSummary>>([&](QObject* c, auto done) { hub_->searchModels({}, c, done); });
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, HubError::Kind::Network);
}

void HubClientTest::invalidRepoIdIsRejected() {
    for (const char* repo : {"", "noslash", "a/b/c", "../etc", "a/..", "a b/c"}) {
        bool calledInline = true;
        std::optional<HubResult<QList<HubFile>>> result;
        QObject context;
        hub_->listFiles(repo, &context, [&](HubResult<QList<HubFile>> r) { result.emplace(r); });
        calledInline = result.has_value();
        QVERIFY(!calledInline);  // callbacks never run inside the call
        QTRY_VERIFY(result.has_value());
        QCOMPARE(result->error().kind, HubError::Kind::InvalidInput);
    }
    QCOMPARE(server_->requests().size(), 0);
    QVERIFY(HubClient::isValidRepoId("TheBloke/Llama-2-7B-GGUF"));
}

void HubClientTest::abortCancels() {
    std::optional<HubResult<QList<HubFile>>> result;
    QObject context;
    hub_->listFiles("slow/repo", &context, [&](HubResult<QList<HubFile>> r) { result.emplace(r); });
    QTRY_COMPARE(server_->requests().size(), 1);
    hub_->abortAll();
    QTRY_VERIFY(result.has_value());
    QCOMPARE(result->error().kind, HubError::Kind::Cancelled);
    // A destroyed context gets no callback at all.
    bool called = false;
    {
        QObject gone;
        hub_->searchModels({}, &gone, [&](auto) { called = true; });
    }
    QTest::qWait(300);
    QVERIFY(!called);
}

void HubClientTest::urlsFollowTheSetting() {
    HubClient hub;
    QCOMPARE(hub.baseUrl(), QUrl("https://huggingface.co"));
    QCOMPARE(hub.fileUrl("o/r", "sub/m-Q4_0.gguf"), QUrl("https://huggingface.co/o/r/resolve/main/sub/m-Q4_0.gguf"));
    QCOMPARE(hub.treeUrl("o/r"), QUrl("https://huggingface.co/api/models/o/r/tree/main?recursive=true"));
    hub.setBaseUrl(QUrl("https://mirror.example/hf/"));
    QCOMPARE(hub.fileUrl("o/r", "a.gguf"), QUrl("https://mirror.example/hf/o/r/resolve/main/a.gguf"));
}

QTEST_GUILESS_MAIN(HubClientTest)
#include "HubClientTest.moc"
