#include "gpu/GpuMonitor.h"

#include "gpu/GpuPoller.h"

namespace hearth::app {

GpuMonitor::GpuMonitor(QObject* parent, const QString& nvmlLibrary)
    : QObject(parent), thread_("hearth-gpu-monitor") {
    qRegisterMetaType<GpuSnapshot>();
    poller_ = thread_.start(new GpuPoller(nvmlLibrary));
    connect(this, &GpuMonitor::startRequested, poller_, &GpuPoller::start, Qt::QueuedConnection);
    connect(this, &GpuMonitor::pollRequested, poller_, &GpuPoller::pollNow, Qt::QueuedConnection);
    connect(poller_, &GpuPoller::snapshot, this, &GpuMonitor::onSnapshot, Qt::QueuedConnection);
}

GpuMonitor::~GpuMonitor() { thread_.stop(); }

void GpuMonitor::start(int intervalMs) { emit startRequested(intervalMs); }
// Blocking, so that no timer poll starts after stop() returns (a snapshot already sent may still
// be delivered by the event loop).
void GpuMonitor::stop() { QMetaObject::invokeMethod(poller_, &GpuPoller::stop, Qt::BlockingQueuedConnection); }
void GpuMonitor::pollNow() { emit pollRequested(); }

void GpuMonitor::onSnapshot(const GpuSnapshot& snapshot) {
    latest_ = snapshot;
    emit updated(latest_);
}

}  // namespace hearth::app
