#pragma once
// GPU and host-memory monitor for the load dialog and the dashboard: polls on a timer on its own
// worker thread and emits snapshots on the owner's (GUI) thread. No NVML or no GPU is a normal
// state: snapshots then have an empty gpus list and a status line, never an error.
//
// Invariant: latest() is the last snapshot delivered by updated() (empty before the first).
#include <QObject>
#include <memory>

#include "core/WorkerThread.h"
#include "gpu/GpuSnapshot.h"
#include "gpu/NvmlLibrary.h"

namespace hearth::app {

class GpuPoller;

class GpuMonitor : public QObject {
    Q_OBJECT
public:
    // `nvmlLibrary`: a soname or path (tests pass a fake or a missing one).
    explicit GpuMonitor(QObject* parent = nullptr, const QString& nvmlLibrary = NvmlLibrary::kDefaultName);
    ~GpuMonitor() override;

    void start(int intervalMs = 500);  // the dashboard's twice a second
    void stop();     // returns once the poller's timer is stopped
    void pollNow();  // one extra snapshot soon (the load dialog opening)
    const GpuSnapshot& latest() const { return latest_; }
    bool hasSnapshot() const { return latest_.takenAt.isValid(); }

signals:
    void updated(const hearth::app::GpuSnapshot& snapshot);
    // to the poller (queued)
    void startRequested(int intervalMs);
    void pollRequested();

private:
    void onSnapshot(const GpuSnapshot& snapshot);
    WorkerThread thread_;
    GpuPoller* poller_ = nullptr;
    GpuSnapshot latest_;
};

}  // namespace hearth::app
