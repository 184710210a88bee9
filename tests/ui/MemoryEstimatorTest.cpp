// The load dialog's memory estimate: layer splits, KV sizing per dtype, fits, the CPU-only case.
#include <QtTest>

#include "host/MemoryEstimator.h"

using namespace hearth;
using namespace hearth::app;

class MemoryEstimatorTest : public QObject {
    Q_OBJECT
private slots:
    void splitsLayersByShares();
    void cpuOnlyPutsEverythingOnTheHost();
    void gpusAndCpuLayersCoverEveryLayerOnce();
    void kvScalesWithContextUsersAndDtype();
    void reportsWhatDoesNotFit();
};

void MemoryEstimatorTest::splitsLayersByShares() {
    QCOMPARE(MemoryEstimator::splitLayers(32, {1, 1}), (QList<int>{16, 16}));
    QCOMPARE(MemoryEstimator::splitLayers(32, {3, 1}), (QList<int>{24, 8}));
    // 10 layers in thirds: 3.33 each; the leftover layer goes to the largest remainder (the first).
    QCOMPARE(MemoryEstimator::splitLayers(10, {1, 1, 1}), (QList<int>{4, 3, 3}));
    // All-zero shares mean equal shares; a zero share among others gets nothing.
    QCOMPARE(MemoryEstimator::splitLayers(6, {0, 0}), (QList<int>{3, 3}));
    QCOMPARE(MemoryEstimator::splitLayers(6, {0, 5}), (QList<int>{0, 6}));
    QCOMPARE(MemoryEstimator::splitLayers(0, {1, 2}), (QList<int>{0, 0}));
}

void MemoryEstimatorTest::cpuOnlyPutsEverythingOnTheHost() {
    MemoryPlanInput in;
    in.weightBytes = 1'000'000;
    in.layers = 5;
    in.kvBytesPerTokenF16 = 1280;  // stories260K: 2 x 5 layers x 4 kv heads x 8 dims x 2 bytes
    in.contextLength = 512;
    in.parallelSequences = 2;
    in.cpuLayers = 0;  // ignored without GPUs
    in.hostAvailableBytes = 8ull << 30;
    const MemoryEstimate e = MemoryEstimator::estimate(in);
    QCOMPARE(e.devices.size(), 1);
    const DeviceEstimate& host = e.devices[0];
    QCOMPARE(host.device, -1);
    QCOMPARE(host.firstLayer, 0);
    QCOMPARE(host.lastLayer, 5);
    QCOMPARE(host.weights, quint64(1'000'000));
    QCOMPARE(host.kvCache, quint64(512 * 2 * 1280));
    QVERIFY(e.fits);
}

void MemoryEstimatorTest::gpusAndCpuLayersCoverEveryLayerOnce() {
    MemoryPlanInput in;
    in.weightBytes = 32ull << 30;
    in.layers = 32;
    in.kvBytesPerTokenF16 = 131072;
    in.contextLength = 8192;
    in.gpus = {{"A", 0, 24ull << 30, 20ull << 30}, {"B", 1, 12ull << 30, 10ull << 30}};
    in.split = {2, 1};
    in.cpuLayers = 5;
    in.hostAvailableBytes = 64ull << 30;
    const MemoryEstimate e = MemoryEstimator::estimate(in);
    QCOMPARE(e.devices.size(), 3);
    QCOMPARE(e.devices[0].layerCount(), 18);  // 27 GPU layers split 2:1
    QCOMPARE(e.devices[1].layerCount(), 9);
    QCOMPARE(e.devices[2].layerCount(), 5);
    int next = 0;
    for (const DeviceEstimate& d : e.devices) {
        QCOMPARE(d.firstLayer, next);
        next = d.lastLayer;
    }
    QCOMPARE(next, 32);
    QCOMPARE(e.devices[0].weights, quint64(18) << 30);  // 1 GiB per layer
    QCOMPARE(e.devices[0].overhead, MemoryEstimator::kGpuOverheadBytes);
    // Without explicit shares the split follows free memory (20:10 -> 2:1).
    in.split.clear();
    const MemoryEstimate byFree = MemoryEstimator::estimate(in);
    QCOMPARE(byFree.devices[0].layerCount(), 18);
    QCOMPARE(byFree.devices[1].layerCount(), 9);
}

void MemoryEstimatorTest::kvScalesWithContextUsersAndDtype() {
    MemoryPlanInput in;
    in.weightBytes = 1 << 20;
    in.layers = 4;
    in.kvBytesPerTokenF16 = 4096;
    in.contextLength = 1000;
    in.parallelSequences = 1;
    in.hostAvailableBytes = 1ull << 40;
    const quint64 f16 = MemoryEstimator::estimate(in).devices.last().kvCache;
    QCOMPARE(f16, quint64(4'096'000));
    in.parallelSequences = 3;
    QCOMPARE(MemoryEstimator::estimate(in).devices.last().kvCache, 3 * f16);
    in.parallelSequences = 1;
    in.kvType = KvDType::Q8_0;
    const double q8 = double(MemoryEstimator::estimate(in).devices.last().kvCache);
    QVERIFY(qAbs(q8 / double(f16) - 34.0 / 64.0) < 1e-6);
    in.kvType = KvDType::FP8_E4M3;
    const double fp8 = double(MemoryEstimator::estimate(in).devices.last().kvCache);
    QVERIFY(fp8 < q8 && fp8 > 0.5 * double(f16));
}

void MemoryEstimatorTest::reportsWhatDoesNotFit() {
    MemoryPlanInput in;
    in.weightBytes = 10ull << 30;
    in.layers = 10;
    in.kvBytesPerTokenF16 = 0;
    in.gpus = {{"Small", 0, 8ull << 30, 6ull << 30}};
    in.hostAvailableBytes = 16ull << 30;
    MemoryEstimate e = MemoryEstimator::estimate(in);
    QVERIFY(!e.fits);
    QVERIFY(!e.devices[0].fits());
    QVERIFY(e.devices[1].fits());
    in.cpuLayers = 5;  // 5 GiB + overhead on the GPU now fits in 6 GiB
    e = MemoryEstimator::estimate(in);
    QVERIFY(e.devices[0].fits());
    QVERIFY(e.fits);
    in.ramCacheBytes = 20ull << 30;  // the RAM tier counts on the host
    e = MemoryEstimator::estimate(in);
    QVERIFY(!e.devices[1].fits());
    QVERIFY(!e.fits);
}

QTEST_GUILESS_MAIN(MemoryEstimatorTest)
#include "MemoryEstimatorTest.moc"
