#pragma once
// A quick, conservative estimate of what a model needs on each device for a given placement, for
// the load dialog (live, while the sliders move) and Discover's "fits" column. It is arithmetic
// on header facts, not the engine's allocator:
//   weights per layer = weightBytes / layers (embedding and output are spread with the layers);
//   KV = context x parallel sequences x kvBytesPerToken(F16) x (element size / 2), per layer;
//   a fixed overhead per device for the runtime and activations (GPU: CUDA context + scratch);
//   the KV RAM tier is counted on the host.
// Layers are split over the chosen GPUs by the given ratios (or by free memory), largest
// remainder first, the last cpuLayers on the host; with no GPU everything is on the host.

#include <QList>

#include "host/MemoryEstimate.h"

namespace hearth::app {

class MemoryEstimator {
public:
    static constexpr quint64 kGpuOverheadBytes = 320ull << 20;
    static constexpr quint64 kHostOverheadBytes = 128ull << 20;

    static MemoryEstimate estimate(const MemoryPlanInput& input);

    // Bytes per cached element relative to a 2-byte F16 element (Q8_0 stores 34 bytes per 32).
    static double kvElementBytes(KvDType type);
    // `layers` split in proportion to `shares` (non-negative; all zero = equal), summing to layers.
    static QList<int> splitLayers(int layers, const QList<double>& shares);
};

}  // namespace hearth::app
