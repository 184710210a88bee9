#pragma once
// One NVIDIA GPU as NVML reports it at one moment.
// Invariants: index is NVML's device index; usedBytes + freeBytes <= totalBytes (as NVML reports);
// a value NVML could not give is -1 (utilization, temperature), never a made-up 0.
#include <QString>
#include <QtGlobal>

namespace hearth::app {

struct GpuDevice {
    int index = 0;
    QString name;
    quint64 totalBytes = 0;
    quint64 freeBytes = 0;
    quint64 usedBytes = 0;
    int utilizationPercent = -1;        // GPU busy over NVML's last sample period
    int memoryUtilizationPercent = -1;  // memory controller busy
    int temperatureC = -1;
};

}  // namespace hearth::app
