#pragma once
// Inputs and outputs of the load dialog's memory estimate (see MemoryEstimator).
//
// Invariants (of an estimate): devices lists the chosen GPUs in pipeline order and then the host
// ("CPU", device -1) last, always; layer ranges [firstLayer, lastLayer) are contiguous, disjoint
// and cover every layer exactly once; fits is true exactly when every device's needed() <=
// available.

#include <QList>
#include <QString>
#include <QtGlobal>

#include "hearth/engine.h"

namespace hearth::app {

struct DeviceCapacity {
    QString name;
    int device = -1;  // CUDA/NVML index; -1 host
    quint64 totalBytes = 0;
    quint64 freeBytes = 0;
};

struct MemoryPlanInput {
    quint64 weightBytes = 0;         // the GGUF file's tensor data
    int layers = 0;                  // transformer blocks
    double kvBytesPerTokenF16 = 0;   // all layers, K and V, F16
    int contextLength = 0;           // tokens per sequence
    int parallelSequences = 1;       // sequences that may hold a full context at once
    KvDType kvType = KvDType::F16;
    QList<DeviceCapacity> gpus;      // the chosen GPUs, in pipeline order
    QList<double> split;             // relative layer share per chosen GPU; empty: by free memory
    int cpuLayers = 0;               // the last N layers run on the CPU
    quint64 hostAvailableBytes = 0;  // RAM that can be allocated now
    quint64 ramCacheBytes = 0;       // the KV RAM tier (host)
};

struct DeviceEstimate {
    QString name;
    int device = -1;
    int firstLayer = 0, lastLayer = 0;
    quint64 weights = 0, kvCache = 0, overhead = 0, ramCache = 0;
    quint64 available = 0;

    int layerCount() const { return lastLayer - firstLayer; }
    quint64 needed() const { return weights + kvCache + overhead + ramCache; }
    bool fits() const { return needed() <= available; }
};

struct MemoryEstimate {
    QList<DeviceEstimate> devices;
    bool fits = false;
    quint64 totalNeeded() const {
        quint64 t = 0;
        for (const auto& d : devices) t += d.needed();
        return t;
    }
};

}  // namespace hearth::app
