#pragma once
// The dashboard's data, without widgets: a rolling window of samples taken twice a second from
// Engine::stats() and the GPU monitor, with the rates derived from the engine's cumulative
// counters (prefix-cache and RAM-tier hit rates and the speculative acceptance rate are computed
// over the interval between two samples, so they follow the current load rather than the whole
// history), and the memory breakdown per device.
//
// Invariants: samples() is in time order and holds at most capacity() entries; a rate is -1
// when nothing happened in its interval (nothing to divide), never a made-up 0.

#include <QList>
#include <QString>
#include <optional>

#include "gpu/GpuSnapshot.h"
#include "hearth/engine.h"

namespace hearth::ui {

struct DashboardSample {
    double seconds = 0;  // since the history started
    bool loaded = false;
    double prefillTokPerSec = 0, decodeTokPerSec = 0;
    int running = 0, waiting = 0;
    double prefixHitRate = -1;   // hits on any tier / prompt tokens looked up
    double ramHitRate = -1;      // hits in the RAM tier / prompt tokens looked up
    double acceptRate = -1;      // accepted / proposed draft tokens
};

// One bar of the VRAM chart. Invariant: weights + kvCache + other + free == total (other and
// free are clamped at 0 when the reports disagree).
struct DeviceMemoryBar {
    QString name;
    int device = -1;
    double total = 0, weights = 0, kvCache = 0, other = 0, free = 0;  // bytes
};

class StatsHistory {
public:
    explicit StatsHistory(int capacity = 120) : capacity_(capacity) {}

    void add(double seconds, const std::optional<EngineStats>& stats);
    const QList<DashboardSample>& samples() const { return samples_; }
    int capacity() const { return capacity_; }
    std::optional<DashboardSample> last() const;
    // The whole-session rates from the last stats (for the labels); -1 when undefined.
    double cumulativePrefixHitRate() const;
    double cumulativeAcceptRate() const;

    // GPUs from the monitor merged with the engine's per-device accounting; with no GPU, one bar
    // for the host's RAM so the chart still says something.
    static QList<DeviceMemoryBar> memoryBars(const app::GpuSnapshot& snapshot, const std::optional<EngineStats>& stats);

private:
    int capacity_;
    QList<DashboardSample> samples_;
    std::optional<EngineStats> previous_;
};

}  // namespace hearth::ui
