// The load dialog: CPU only (no NVML: the normal state) and with the fake two-GPU NVML; the live
// memory estimate follows the options; the EngineConfig it fills; loading stories260K for real
// with the progress bar; a failed load says why; cancelling a load.
#include <QCheckBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "GpuSelectionTable.h"
#include "LoadDialog.h"
#include "ScriptedBackend.h"
#include "UiTestEnv.h"
#include "gpu/GpuMonitor.h"
#include "host/EngineHost.h"
#include "library/ModelLibrary.h"

using namespace hearth;
using hearth::test::UiTestEnv;

class LoadDialogTest : public QObject {
    Q_OBJECT
private slots:
    void cpuOnlyEstimateAndConfig();
    void fakeGpusSplitLayers();
    void loadsTheRealModel();
    void aFailedLoadSaysWhy();
    void cancelsALoad();
};

namespace {
app::ModelRecord addStories(UiTestEnv& env) {
    auto r = env.services().library().addFile(UiTestEnv::modelPath());
    if (!r) qFatal("cannot add the model: %s", r.error().message.c_str());
    return *r;
}
void waitForSnapshot(app::GpuMonitor& gpus) {
    QSignalSpy updated(&gpus, &app::GpuMonitor::updated);
    gpus.pollNow();
    QVERIFY(updated.wait(5000));
}
}  // namespace

void LoadDialogTest::cpuOnlyEstimateAndConfig() {
    UiTestEnv env;
    waitForSnapshot(env.services().gpus());
    const app::ModelRecord model = addStories(env);
    ui::LoadDialog dialog(model, env.services().gpus(), env.services().engine());
    dialog.show();
    QCOMPARE(dialog.gpuTable()->gpuCount(), 0);
    QVERIFY(dialog.findChild<QLabel*>("noGpuLabel")->isVisible());

    dialog.setContextLength(256);
    dialog.setParallelUsers(2);
    const app::MemoryEstimate e = dialog.estimate();
    QCOMPARE(e.devices.size(), 1);
    QCOMPARE(e.devices[0].device, -1);
    QCOMPARE(e.devices[0].layerCount(), 5);
    QCOMPARE(e.devices[0].kvCache, quint64(256 * 2 * model.kvBytesPerTokenF16));
    QVERIFY(e.fits);
    auto* table = dialog.findChild<QTableWidget*>("estimateTable");
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 1)->text(), QString("0–4"));

    dialog.setParallelUsers(4);  // live: twice the KV
    QCOMPARE(dialog.estimate().devices[0].kvCache, 2 * e.devices[0].kvCache);

    dialog.setKvType(KvDType::Q8_0);
    const EngineConfig c = dialog.config();
    QCOMPARE(QString::fromStdString(c.modelPath), model.path);
    QCOMPARE(c.contextLength, 256);
    QCOMPARE(c.maxSeqs, 4);
    QCOMPARE(c.kvType, KvDType::Q8_0);
    QVERIFY(c.placement.devices.empty());
    QCOMPARE(c.placement.cpuLayers, 0);
    QCOMPARE(c.spec.method, SpecMethod::None);
    // The RAM tier: the engine's automatic size by default, counted on the host; or a fixed size.
    QCOMPARE(c.ramCacheBytes, EngineConfig::kRamCacheAuto);
    QCOMPARE(dialog.estimate().devices[0].ramCache, dialog.ramCacheBytes());
    dialog.setRamCacheGiB(0.5);
    QCOMPARE(dialog.config().ramCacheBytes, quint64(512) << 20);
    QCOMPARE(dialog.estimate().devices[0].ramCache, quint64(512) << 20);
}

void LoadDialogTest::fakeGpusSplitLayers() {
    UiTestEnv env(UiTestEnv::Gpus::FakeTwo);
    waitForSnapshot(env.services().gpus());
    const app::ModelRecord model = addStories(env);
    ui::LoadDialog dialog(model, env.services().gpus(), env.services().engine());
    dialog.show();
    QCOMPARE(dialog.gpuTable()->gpuCount(), 2);
    auto* gpuTable = dialog.findChild<QTableWidget*>("gpuTable");
    QCOMPARE(gpuTable->item(0, ui::GpuSelectionTable::Name)->text(), QString("Fake GeForce 4090"));
    QCOMPARE(gpuTable->item(0, ui::GpuSelectionTable::Temperature)->text(), QString("61 °C"));
    QCOMPARE(gpuTable->item(1, ui::GpuSelectionTable::Temperature)->text(), QString("n/a"));

    dialog.gpuTable()->setShare(0, 80);
    dialog.gpuTable()->setShare(1, 20);
    dialog.setCpuLayers(1);
    app::MemoryEstimate e = dialog.estimate();
    QCOMPARE(e.devices.size(), 3);
    QCOMPARE(e.devices[0].layerCount() + e.devices[1].layerCount(), 4);
    QCOMPARE(e.devices[0].layerCount(), 3);  // 4 x 0.8 = 3.2
    QCOMPARE(e.devices[2].layerCount(), 1);
    EngineConfig c = dialog.config();
    QCOMPARE(c.placement.devices, (std::vector<int>{0, 1}));
    QCOMPARE(c.placement.split, (std::vector<float>{80, 20}));
    QCOMPARE(c.placement.cpuLayers, 1);

    dialog.findChild<QCheckBox*>("useGpu1")->setChecked(false);
    e = dialog.estimate();
    QCOMPARE(e.devices.size(), 2);
    QCOMPARE(e.devices[0].layerCount(), 4);
    QCOMPARE(dialog.config().placement.devices, (std::vector<int>{0}));
}

void LoadDialogTest::loadsTheRealModel() {
    UiTestEnv env;
    waitForSnapshot(env.services().gpus());
    const app::ModelRecord model = addStories(env);
    ui::LoadDialog dialog(model, env.services().gpus(), env.services().engine());
    dialog.setContextLength(256);
    dialog.setParallelUsers(2);
    dialog.show();
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QSignalSpy progress(&env.services().engine(), &app::EngineHost::loadProgress);
    QTest::mouseClick(dialog.findChild<QPushButton*>("startLoadButton"), Qt::LeftButton);
    QVERIFY(dialog.isLoading());
    QVERIFY(dialog.findChild<QProgressBar*>("loadProgress")->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!accepted.isEmpty() || !dialog.isLoading(), 30000);
    QVERIFY2(!accepted.isEmpty(), qPrintable(dialog.findChild<QLabel*>("loadStatus")->text()));
    QVERIFY(!progress.isEmpty());
    QVERIFY(env.services().engine().isReady());
    QCOMPARE(env.services().engine().backend()->contextLength(), 256);
}

void LoadDialogTest::aFailedLoadSaysWhy() {
    UiTestEnv env;
    waitForSnapshot(env.services().gpus());
    app::ModelRecord model = addStories(env);
    model.path = env.tempPath("vanished.gguf");  // the file went away after it was listed
    ui::LoadDialog dialog(model, env.services().gpus(), env.services().engine());
    dialog.show();
    dialog.startLoad();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLoading(), 30000);
    const QString status = dialog.findChild<QLabel*>("loadStatus")->text();
    QVERIFY2(status.contains("vanished.gguf"), qPrintable(status));
    QVERIFY(dialog.isVisible());
    QCOMPARE(env.services().engine().state(), app::EngineHost::State::Empty);
}

void LoadDialogTest::cancelsALoad() {
    UiTestEnv env(UiTestEnv::Gpus::None, hearth::test::scriptedFactory({"a"}, 1, 300, 10));
    const app::ModelRecord model = addStories(env);
    ui::LoadDialog dialog(model, env.services().gpus(), env.services().engine());
    dialog.show();
    QSignalSpy progress(&env.services().engine(), &app::EngineHost::loadProgress);
    QSignalSpy rejected(&dialog, &QDialog::rejected);
    dialog.startLoad();
    QVERIFY(progress.wait(5000));
    auto* cancel = dialog.findChild<QPushButton*>("cancelLoadButton");
    QCOMPARE(cancel->text(), QString("Cancel loading"));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLoading(), 5000);
    QCOMPARE(dialog.findChild<QLabel*>("loadStatus")->text(), QString("Loading was cancelled."));
    QVERIFY(rejected.isEmpty());  // the dialog stays, to try other options
    QCOMPARE(env.services().engine().state(), app::EngineHost::State::Empty);
    QCOMPARE(cancel->text(), QString("Close"));
}

QTEST_MAIN(LoadDialogTest)
#include "LoadDialogTest.moc"
