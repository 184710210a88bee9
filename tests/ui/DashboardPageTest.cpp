// The dashboard: its figures come from the engine's stats and the GPU monitor. Rates over each
// interval, gaps where nothing happened, memory bars that add up, and the charts fed from a
// loaded (scripted) engine with requests running.
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include "DashboardPage.h"
#include "ScriptedBackend.h"
#include "StatsHistory.h"
#include "UiTestEnv.h"
#include "gpu/GpuMonitor.h"
#include "host/EngineHost.h"

using namespace hearth;
using hearth::test::UiTestEnv;
using hearth::ui::StatsHistory;

class DashboardPageTest : public QObject {
    Q_OBJECT
private slots:
    void ratesAreOverEachInterval();
    void memoryBarsAddUp();
    void followsALoadedEngine();
};

void DashboardPageTest::ratesAreOverEachInterval() {
    StatsHistory h(3);
    h.add(0, std::nullopt);
    QVERIFY(!h.last()->loaded);
    EngineStats s;
    s.prefixQueryTokens = 100;
    s.prefixHitTokensDevice = 30;
    s.prefixHitTokensRam = 10;
    s.draftProposed = 50;
    s.draftAccepted = 40;
    h.add(0.5, s);
    QCOMPARE(h.last()->prefixHitRate, 0.4);
    QCOMPARE(h.last()->ramHitRate, 0.1);
    QCOMPARE(h.last()->acceptRate, 0.8);
    s.prefixQueryTokens = 200;  // +100, of which +80 hit the device tier
    s.prefixHitTokensDevice = 110;
    h.add(1.0, s);
    QCOMPARE(h.last()->prefixHitRate, 0.8);
    QCOMPARE(h.last()->ramHitRate, 0.0);
    QCOMPARE(h.last()->acceptRate, -1.0);  // no drafts in this interval: a gap, not 0
    QCOMPARE(h.cumulativePrefixHitRate(), 0.6);
    QCOMPARE(h.cumulativeAcceptRate(), 0.8);
    h.add(1.5, s);
    QCOMPARE(h.samples().size(), 3);  // capacity
    QCOMPARE(h.samples().first().seconds, 0.5);
}

void DashboardPageTest::memoryBarsAddUp() {
    app::GpuSnapshot snap;
    app::GpuDevice g;
    g.index = 0;
    g.name = "G";
    g.totalBytes = 24ull << 30;
    g.freeBytes = 4ull << 30;
    snap.gpus = {g};
    EngineStats s;
    DeviceMemoryStats d;
    d.device = 0;
    d.weights = 12ull << 30;
    d.kvPool = 6ull << 30;
    s.devices = {d};
    auto bars = StatsHistory::memoryBars(snap, s);
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars[0].weights, double(12ull << 30));
    QCOMPARE(bars[0].kvCache, double(6ull << 30));
    QCOMPARE(bars[0].other, double(2ull << 30));
    QCOMPARE(bars[0].free, double(4ull << 30));
    // No GPU: one bar for the host's RAM.
    app::GpuSnapshot cpu;
    cpu.host.totalBytes = 16ull << 30;
    cpu.host.availableBytes = 10ull << 30;
    bars = StatsHistory::memoryBars(cpu, std::nullopt);
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars[0].device, -1);
    QCOMPARE(bars[0].weights + bars[0].kvCache + bars[0].other + bars[0].free, bars[0].total);
    QCOMPARE(bars[0].free, double(10ull << 30));
}

void DashboardPageTest::followsALoadedEngine() {
    UiTestEnv env(UiTestEnv::Gpus::FakeTwo,
                  hearth::test::scriptedFactory(std::vector<std::string>(100, "x"), 10, 1, 1));
    QSignalSpy snap(&env.services().gpus(), &app::GpuMonitor::updated);
    env.services().gpus().pollNow();
    QVERIFY(snap.wait(5000));
    ui::DashboardPage page(env.services().engine(), env.services().gpus());
    page.show();
    page.sample();
    QVERIFY(!page.history().last()->loaded);
    QVERIFY(page.findChild<QLabel*>("dashboardModel")->text().contains("No model"));
    QCOMPARE(page.currentBars().size(), 2);
    QCOMPARE(page.currentBars()[0].name, QString("Fake GeForce 4090"));

    QSignalSpy loaded(&env.services().engine(), &app::EngineHost::loaded);
    EngineConfig c;
    c.modelPath = "scripted.gguf";
    QVERIFY(env.services().engine().load(c).ok());
    QVERIFY(loaded.wait(5000));
    QVERIFY(env.services().engine().submit(GenerationRequest{}).ok());
    QVERIFY(env.services().engine().submit(GenerationRequest{}).ok());
    QTRY_VERIFY_WITH_TIMEOUT((page.sample(), page.history().last()->running == 2), 3000);
    QVERIFY(page.history().last()->loaded);
    QVERIFY(page.history().last()->decodeTokPerSec > 0);
    QVERIFY(page.findChild<QLabel*>("dashboardFigures")->text().contains("running 2"));
}

QTEST_MAIN(DashboardPageTest)
#include "DashboardPageTest.moc"
