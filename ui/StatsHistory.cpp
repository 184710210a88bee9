#include "StatsHistory.h"

#include <algorithm>

namespace hearth::ui {
namespace {
double ratio(double num, double den) { return den > 0 ? num / den : -1; }
}  // namespace

void StatsHistory::add(double seconds, const std::optional<EngineStats>& stats) {
    DashboardSample s;
    s.seconds = seconds;
    s.loaded = stats.has_value();
    if (stats) {
        s.prefillTokPerSec = stats->prefillTokPerSec;
        s.decodeTokPerSec = stats->decodeTokPerSec;
        s.running = stats->running;
        s.waiting = stats->waiting;
        // Counters restart with a new model: diff against the previous sample only while they grow.
        const bool continuous = previous_ && stats->prefixQueryTokens >= previous_->prefixQueryTokens &&
                                stats->draftProposed >= previous_->draftProposed;
        const EngineStats base = continuous ? *previous_ : EngineStats{};
        const double query = double(stats->prefixQueryTokens - base.prefixQueryTokens);
        const double hits = double((stats->prefixHitTokensDevice + stats->prefixHitTokensRam + stats->prefixHitTokensDisk) -
                                   (base.prefixHitTokensDevice + base.prefixHitTokensRam + base.prefixHitTokensDisk));
        s.prefixHitRate = ratio(hits, query);
        s.ramHitRate = ratio(double(stats->prefixHitTokensRam - base.prefixHitTokensRam), query);
        s.acceptRate = ratio(double(stats->draftAccepted - base.draftAccepted),
                             double(stats->draftProposed - base.draftProposed));
    }
    previous_ = stats;
    samples_.append(s);
    while (samples_.size() > capacity_) samples_.removeFirst();
}

std::optional<DashboardSample> StatsHistory::last() const {
    if (samples_.isEmpty()) return std::nullopt;
    return samples_.last();
}

double StatsHistory::cumulativePrefixHitRate() const {
    if (!previous_) return -1;
    const auto& p = *previous_;
    return ratio(double(p.prefixHitTokensDevice + p.prefixHitTokensRam + p.prefixHitTokensDisk),
                 double(p.prefixQueryTokens));
}

double StatsHistory::cumulativeAcceptRate() const {
    if (!previous_) return -1;
    return ratio(double(previous_->draftAccepted), double(previous_->draftProposed));
}

QList<DeviceMemoryBar> StatsHistory::memoryBars(const app::GpuSnapshot& snapshot, const std::optional<EngineStats>& stats) {
    auto engineDevice = [&](int device) -> const DeviceMemoryStats* {
        if (!stats) return nullptr;
        for (const auto& d : stats->devices)
            if (d.device == device) return &d;
        return nullptr;
    };
    auto fill = [](DeviceMemoryBar& b, double used, const DeviceMemoryStats* e) {
        if (e) {
            b.weights = double(e->weights);
            b.kvCache = double(e->kvPool);
        }
        b.weights = std::min(b.weights, b.total);
        b.kvCache = std::min(b.kvCache, b.total - b.weights);
        b.other = std::clamp(used - b.weights - b.kvCache, 0.0, b.total - b.weights - b.kvCache);
        b.free = b.total - b.weights - b.kvCache - b.other;
    };
    QList<DeviceMemoryBar> bars;
    for (const auto& g : snapshot.gpus) {
        DeviceMemoryBar b;
        b.name = g.name;
        b.device = g.index;
        b.total = double(g.totalBytes);
        fill(b, double(g.totalBytes - std::min(g.totalBytes, g.freeBytes)), engineDevice(g.index));
        bars.append(b);
    }
    if (bars.isEmpty() && snapshot.host.totalBytes > 0) {
        DeviceMemoryBar b;
        b.name = QStringLiteral("CPU");
        b.device = -1;
        b.total = double(snapshot.host.totalBytes);
        fill(b, double(snapshot.host.totalBytes - std::min(snapshot.host.totalBytes, snapshot.host.availableBytes)),
             engineDevice(-1));
        bars.append(b);
    }
    return bars;
}

}  // namespace hearth::ui
