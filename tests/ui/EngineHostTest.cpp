// The engine host: load with progress, cancel a load, stream several requests at once as queued
// signals on the GUI thread, cancel one, unload with requests running; and the real engine on
// stories260K, whose greedy reply must be llama.cpp's reference text.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

#include "ScriptedBackend.h"
#include "UiTestEnv.h"
#include "host/EngineHost.h"

using namespace hearth;
using namespace hearth::app;
using hearth::test::scriptedFactory;
using hearth::test::UiTestEnv;

class EngineHostTest : public QObject {
    Q_OBJECT
private slots:
    void loadsWithProgress();
    void cancelsALoad();
    void refusesBadCalls();
    void streamsConcurrentRequestsOnTheGuiThread();
    void unloadEndsRunningRequests();
    void realEngineMatchesReferenceGreedyText();
};

namespace {
EngineConfig configFor(const QString& path) {
    EngineConfig c;
    c.modelPath = path.toStdString();
    return c;
}
}  // namespace

void EngineHostTest::loadsWithProgress() {
    EngineHost host(nullptr, scriptedFactory({"a"}, 1, 5, 10));
    QSignalSpy progress(&host, &EngineHost::loadProgress);
    QSignalSpy loaded(&host, &EngineHost::loaded);
    QSignalSpy states(&host, &EngineHost::stateChanged);
    QVERIFY(host.load(configFor("x.gguf")).ok());
    QCOMPARE(host.state(), EngineHost::State::Loading);
    QVERIFY(loaded.wait(5000));
    QCOMPARE(host.state(), EngineHost::State::Ready);
    QVERIFY(host.backend() != nullptr);
    QCOMPARE(host.modelName(), QString("scripted"));
    QVERIFY(progress.size() >= 3);
    double last = -1;
    for (const auto& args : progress) {
        QVERIFY(args[0].toDouble() >= last);
        last = args[0].toDouble();
    }
    QCOMPARE(last, 1.0);
    QCOMPARE(states.size(), 2);  // Loading, Ready
}

void EngineHostTest::cancelsALoad() {
    EngineHost host(nullptr, scriptedFactory({"a"}, 1, 200, 10));  // 2 s unless cancelled
    QSignalSpy progress(&host, &EngineHost::loadProgress);
    QSignalSpy failed(&host, &EngineHost::loadFailed);
    QSignalSpy loaded(&host, &EngineHost::loaded);
    QVERIFY(host.load(configFor("x.gguf")).ok());
    QVERIFY(progress.wait(5000));
    QElapsedTimer t;
    t.start();
    host.cancelLoad();
    QCOMPARE(host.state(), EngineHost::State::Loading);  // until the loader confirms
    QVERIFY(failed.wait(5000));
    QVERIFY(t.elapsed() < 1500);
    QCOMPARE(failed.first()[1].toBool(), true);
    QCOMPARE(host.state(), EngineHost::State::Empty);
    QCOMPARE(loaded.size(), 0);
    // And the host loads again afterwards.
    QVERIFY(host.load(configFor("x.gguf")).ok());
    host.cancelLoad();
    QVERIFY(failed.wait(5000));
}

void EngineHostTest::refusesBadCalls() {
    EngineHost host(nullptr, scriptedFactory({"a"}, 1, 20, 10));
    auto none = host.submit(GenerationRequest{});
    QVERIFY(!none.ok());
    QCOMPARE(none.error().code, ErrorCode::Unavailable);
    QVERIFY(!host.load(EngineConfig{}).ok());  // no model path
    QVERIFY(host.load(configFor("x.gguf")).ok());
    const Status second = host.load(configFor("y.gguf"));
    QVERIFY(!second.ok());
    QCOMPARE(second.error().code, ErrorCode::InvalidArgument);
    QSignalSpy loaded(&host, &EngineHost::loaded);
    QVERIFY(loaded.wait(5000));
}

void EngineHostTest::streamsConcurrentRequestsOnTheGuiThread() {
    EngineHost host(nullptr, scriptedFactory({"Hel", "lo", ", ", "wor", "ld", "!"}, 15, 1, 1));
    QSignalSpy loaded(&host, &EngineHost::loaded);
    QVERIFY(host.load(configFor("x.gguf")).ok());
    QVERIFY(loaded.wait(5000));

    QHash<quint64, QString> text;
    QHash<quint64, int> tokens;
    QHash<quint64, FinishReason> reasons;
    bool allOnGuiThread = true;
    connect(&host, &EngineHost::tokens, this, [&](quint64 id, const QString& delta, int n) {
        allOnGuiThread &= QThread::currentThread() == qApp->thread();
        text[id] += delta;
        tokens[id] += n;
    });
    connect(&host, &EngineHost::finished, this, [&](quint64 id, FinishReason r, const Usage&) { reasons[id] = r; });

    const RequestId a = *host.submit(GenerationRequest{});
    const RequestId b = *host.submit(GenerationRequest{});
    const RequestId c = *host.submit(GenerationRequest{});
    QVERIFY(a != b && b != c);
    QCOMPARE(host.activeRequests(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(tokens.value(c) >= 1, 5000);
    host.cancel(c);
    QTRY_COMPARE_WITH_TIMEOUT(reasons.size(), 3, 5000);
    QVERIFY(allOnGuiThread);
    QCOMPARE(text.value(a), QString("Hello, world!"));
    QCOMPARE(text.value(b), QString("Hello, world!"));
    QCOMPARE(tokens.value(a), 6);
    QCOMPARE(reasons.value(a), FinishReason::Stop);
    QCOMPARE(reasons.value(c), FinishReason::Cancelled);
    QVERIFY(text.value(c).size() < QString("Hello, world!").size());
    QCOMPARE(host.activeRequests(), 0);
}

void EngineHostTest::unloadEndsRunningRequests() {
    EngineHost host(nullptr, scriptedFactory(std::vector<std::string>(200, "x"), 10, 1, 1));
    QSignalSpy loaded(&host, &EngineHost::loaded);
    QVERIFY(host.load(configFor("x.gguf")).ok());
    QVERIFY(loaded.wait(5000));
    QSignalSpy finished(&host, &EngineHost::finished);
    QSignalSpy unloaded(&host, &EngineHost::unloaded);
    QSignalSpy tokens(&host, &EngineHost::tokens);
    QVERIFY(host.submit(GenerationRequest{}).ok());
    QVERIFY(tokens.wait(5000));
    host.unload();
    QCOMPARE(host.state(), EngineHost::State::Empty);
    QVERIFY(host.backend() == nullptr);
    QVERIFY(unloaded.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    QCOMPARE(finished.first()[1].value<FinishReason>(), FinishReason::Cancelled);
}

void EngineHostTest::realEngineMatchesReferenceGreedyText() {
    QFile f(QString(HEARTH_SHARED_DIR) + "/testdata/reference/stories260K.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject ref = QJsonDocument::fromJson(f.readAll()).array().first().toObject();

    EngineHost host;  // the real engine
    QSignalSpy loaded(&host, &EngineHost::loaded);
    QSignalSpy failed(&host, &EngineHost::loadFailed);
    EngineConfig config = configFor(UiTestEnv::modelPath());
    config.contextLength = 256;
    config.maxSeqs = 2;
    config.threads = 1;
    QVERIFY(host.load(config).ok());
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() || !failed.isEmpty(), 30000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first()[0].toString()));
    QCOMPARE(host.state(), EngineHost::State::Ready);

    GenerationRequest r;
    r.promptText = ref.value("prompt").toString().toStdString();
    r.sampling.temperature = 0;
    r.maxTokens = 24;
    r.ignoreEos = true;
    QString text;
    int count = 0;
    connect(&host, &EngineHost::tokens, this, [&](quint64, const QString& d, int n) {
        text += d;
        count += n;
    });
    QSignalSpy finished(&host, &EngineHost::finished);
    QVERIFY(host.submit(r).ok());
    QVERIFY(finished.wait(30000));
    QCOMPARE(count, 24);
    const QString expected = ref.value("text").toString();
    QVERIFY2(expected.startsWith(text) && text.size() > 40, qPrintable("got: " + text));
    const Usage usage = finished.first()[2].value<Usage>();
    QCOMPARE(usage.completionTokens, 24);
    QCOMPARE(usage.promptTokens, 5);  // BOS + 4, as the reference's prompt_tokens
}

QTEST_GUILESS_MAIN(EngineHostTest)
#include "EngineHostTest.moc"
