#pragma once
// What the GPU monitor saw at one poll: the GPUs (possibly none: a normal state) and host RAM.
// Invariant: gpus is in NVML index order; status says why it is empty when it is ("NVML not
// found", "no NVIDIA GPU") and is informational, never an error to show in a dialog.
#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

#include "gpu/GpuDevice.h"
#include "gpu/HostMemory.h"

namespace hearth::app {

struct GpuSnapshot {
    QList<GpuDevice> gpus;
    HostMemory host;
    QString status;
    QDateTime takenAt;
};

}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::app::GpuSnapshot)
