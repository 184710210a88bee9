#include "host/MemoryEstimator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hearth::app {

double MemoryEstimator::kvElementBytes(KvDType type) {
    switch (type) {
        case KvDType::F16: return 2.0;
        case KvDType::Q8_0: return 34.0 / 32.0;
        case KvDType::FP8_E4M3: return 1.0 + 4.0 / 128.0;  // one f32 scale per 128 values
    }
    return 2.0;
}

QList<int> MemoryEstimator::splitLayers(int layers, const QList<double>& shares) {
    QList<int> out(shares.size(), 0);
    if (shares.isEmpty() || layers <= 0) return out;
    double total = 0;
    for (double s : shares) total += std::max(0.0, s);
    QList<double> exact(shares.size());
    for (int i = 0; i < shares.size(); ++i)
        exact[i] = total > 0 ? layers * std::max(0.0, shares[i]) / total : double(layers) / shares.size();
    int assigned = 0;
    for (int i = 0; i < shares.size(); ++i) {
        out[i] = int(std::floor(exact[i]));
        assigned += out[i];
    }
    // Largest remainder: the devices that lost the most to rounding get the leftover layers.
    QList<int> order(shares.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return exact[a] - out[a] > exact[b] - out[b]; });
    for (int k = 0; assigned < layers; k = (k + 1) % int(order.size())) {
        ++out[order[k]];
        ++assigned;
    }
    return out;
}

MemoryEstimate MemoryEstimator::estimate(const MemoryPlanInput& in) {
    MemoryEstimate est;
    const int layers = std::max(1, in.layers);
    const double weightPerLayer = double(in.weightBytes) / layers;
    const double tokens = double(std::max(0, in.contextLength)) * std::max(1, in.parallelSequences);
    const double kvPerLayer = tokens * in.kvBytesPerTokenF16 * (kvElementBytes(in.kvType) / 2.0) / layers;

    const bool anyGpu = !in.gpus.isEmpty();
    const int hostLayers = anyGpu ? std::clamp(in.cpuLayers, 0, layers) : layers;
    const int gpuLayers = layers - hostLayers;

    QList<double> shares = in.split;
    if (shares.size() != in.gpus.size()) {
        shares.clear();
        for (const auto& g : in.gpus) shares.append(double(g.freeBytes));
    }
    const QList<int> perGpu = splitLayers(gpuLayers, shares);

    int next = 0;
    for (int i = 0; i < in.gpus.size(); ++i) {
        DeviceEstimate d;
        d.name = in.gpus[i].name;
        d.device = in.gpus[i].device;
        d.firstLayer = next;
        d.lastLayer = next + perGpu[i];
        next = d.lastLayer;
        d.weights = quint64(std::llround(weightPerLayer * d.layerCount()));
        d.kvCache = quint64(std::llround(kvPerLayer * d.layerCount()));
        d.overhead = d.layerCount() > 0 ? kGpuOverheadBytes : 0;
        d.available = in.gpus[i].freeBytes;
        est.devices.append(d);
    }
    DeviceEstimate host;
    host.name = QStringLiteral("CPU");
    host.device = -1;
    host.firstLayer = next;
    host.lastLayer = layers;
    host.weights = quint64(std::llround(weightPerLayer * host.layerCount()));
    host.kvCache = quint64(std::llround(kvPerLayer * host.layerCount()));
    host.overhead = kHostOverheadBytes;
    host.ramCache = in.ramCacheBytes;
    host.available = in.hostAvailableBytes;
    est.devices.append(host);

    est.fits = std::all_of(est.devices.begin(), est.devices.end(), [](const DeviceEstimate& d) { return d.fits(); });
    return est;
}

}  // namespace hearth::app
