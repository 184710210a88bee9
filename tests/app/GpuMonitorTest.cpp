// GpuMonitor with no NVML (the normal CPU-only state), with a fake NVML of two GPUs, and the
// /proc/meminfo parser.
#include <QSignalSpy>
#include <QtTest>

#include "gpu/GpuMonitor.h"
#include "gpu/HostMemory.h"
#include "gpu/NvmlLibrary.h"

using namespace hearth::app;

class GpuMonitorTest : public QObject {
    Q_OBJECT
private slots:
    void noNvmlIsAnEmptyNormalState();
    void fakeNvmlReportsDevices();
    void pollsOnTimerAndStops();
    void parsesMeminfo();
    void hostMemoryIsReal();
};

void GpuMonitorTest::noNvmlIsAnEmptyNormalState() {
    NvmlLibrary missing("libnvidia-ml-definitely-not-here.so.1");
    QVERIFY(!missing.load());
    QVERIFY(missing.why().contains("not found"));
    QVERIFY(missing.devices().isEmpty());

    GpuMonitor monitor(nullptr, "libnvidia-ml-definitely-not-here.so.1");
    QSignalSpy updated(&monitor, &GpuMonitor::updated);
    QVERIFY(!monitor.hasSnapshot());
    monitor.pollNow();
    QVERIFY(updated.wait(5000));
    const GpuSnapshot s = monitor.latest();
    QVERIFY(s.gpus.isEmpty());
    QVERIFY(!s.status.isEmpty());
    QVERIFY(s.host.totalBytes > 0);
    QVERIFY(s.takenAt.isValid());
}

void GpuMonitorTest::fakeNvmlReportsDevices() {
    NvmlLibrary nvml(HEARTH_FAKE_NVML);
    QVERIFY2(nvml.load(), qPrintable(nvml.why()));
    const QList<GpuDevice> gpus = nvml.devices();
    QCOMPARE(gpus.size(), 2);
    const quint64 gib = 1024ull * 1024 * 1024;
    QCOMPARE(gpus[0].name, QString("Fake GeForce 4090"));
    QCOMPARE(gpus[0].totalBytes, 24 * gib);
    QCOMPARE(gpus[0].freeBytes, 19 * gib);
    QCOMPARE(gpus[0].usedBytes, 5 * gib);
    QCOMPARE(gpus[0].utilizationPercent, 37);
    QCOMPARE(gpus[0].memoryUtilizationPercent, 21);
    QCOMPARE(gpus[0].temperatureC, 61);
    QCOMPARE(gpus[1].index, 1);
    QCOMPARE(gpus[1].name, QString("Fake GeForce 3060"));
    QCOMPARE(gpus[1].temperatureC, -1);  // not supported: unknown, not zero
    nvml.unload();
    QVERIFY(!nvml.available());
    QVERIFY(nvml.devices().isEmpty());
}

void GpuMonitorTest::pollsOnTimerAndStops() {
    GpuMonitor monitor(nullptr, HEARTH_FAKE_NVML);
    QSignalSpy updated(&monitor, &GpuMonitor::updated);
    monitor.start(60);
    QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 3, 5000);
    QCOMPARE(monitor.latest().gpus.size(), 2);
    QVERIFY(monitor.latest().status.isEmpty());
    monitor.stop();
    QTest::qWait(50);  // a snapshot sent before the stop may still be in the event queue
    const int after = updated.count();
    QTest::qWait(300);
    QCOMPARE(updated.count(), after);
}

void GpuMonitorTest::parsesMeminfo() {
    const QByteArray text =
        "MemTotal:       16318480 kB\nMemFree:         1234567 kB\nMemAvailable:    9876543 kB\nCached: 100 kB\n";
    auto m = HostMemory::parseMeminfo(text);
    QVERIFY(m.has_value());
    QCOMPARE(m->totalBytes, 16318480ull * 1024);
    QCOMPARE(m->availableBytes, 9876543ull * 1024);
    auto old = HostMemory::parseMeminfo("MemTotal: 1000 kB\nMemFree: 200 kB\nCached: 300 kB\n");
    QVERIFY(old.has_value());
    QCOMPARE(old->availableBytes, 500ull * 1024);
    QVERIFY(!HostMemory::parseMeminfo("garbage").has_value());
    QVERIFY(!HostMemory::parseMeminfo("MemTotal: lots kB\nMemAvailable: 1 kB\n").has_value());
}

void GpuMonitorTest::hostMemoryIsReal() {
    const HostMemory m = HostMemory::read();
    QVERIFY(m.totalBytes > 256ull * 1024 * 1024);
    QVERIFY(m.availableBytes > 0);
    QVERIFY(m.availableBytes <= m.totalBytes);
}

QTEST_GUILESS_MAIN(GpuMonitorTest)
#include "GpuMonitorTest.moc"
