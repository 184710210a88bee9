#include "gpu/GpuPoller.h"

namespace hearth::app {

GpuPoller::GpuPoller(QString nvmlLibrary) : libraryName_(std::move(nvmlLibrary)) {}

GpuPoller::~GpuPoller() = default;

void GpuPoller::start(int intervalMs) {
    if (!timer_) {
        timer_ = new QTimer(this);
        connect(timer_, &QTimer::timeout, this, &GpuPoller::pollNow);
    }
    timer_->start(std::max(50, intervalMs));
    pollNow();
}

void GpuPoller::stop() {
    if (timer_) timer_->stop();
}

void GpuPoller::pollNow() {
    if (!triedLoad_) {
        // Loaded once: a machine without the driver stays CPU-only until the app restarts.
        triedLoad_ = true;
        nvml_ = std::make_unique<NvmlLibrary>(libraryName_);
        nvml_->load();
    }
    GpuSnapshot s;
    s.takenAt = QDateTime::currentDateTimeUtc();
    s.host = HostMemory::read();
    if (nvml_->available()) {
        s.gpus = nvml_->devices();
        if (s.gpus.isEmpty()) s.status = tr("no NVIDIA GPU found");
    } else {
        s.status = nvml_->why();
    }
    emit snapshot(s);
}

}  // namespace hearth::app
