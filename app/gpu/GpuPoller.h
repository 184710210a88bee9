#pragma once
// Polls NVML and /proc/meminfo on the GPU monitor's worker thread (an NVML query can take
// milliseconds, NVML's first init much longer; the GUI thread must not wait for either).
// Lives on a WorkerThread; reached only through queued connections.
#include <QObject>
#include <QTimer>
#include <memory>

#include "gpu/GpuSnapshot.h"
#include "gpu/NvmlLibrary.h"

namespace hearth::app {

class GpuPoller : public QObject {
    Q_OBJECT
public:
    explicit GpuPoller(QString nvmlLibrary);
    ~GpuPoller() override;

public slots:
    void start(int intervalMs);
    void stop();
    void pollNow();

signals:
    void snapshot(const hearth::app::GpuSnapshot& snapshot);

private:
    QString libraryName_;
    std::unique_ptr<NvmlLibrary> nvml_;
    QTimer* timer_ = nullptr;
    bool triedLoad_ = false;
};

}  // namespace hearth::app
