#pragma once
// NVML (libnvidia-ml.so.1, shipped with the NVIDIA driver) opened at run time with dlopen, so that
// Hearth starts on machines without the driver. Only the few entry points the monitor needs are
// resolved; their C signatures are declared in NvmlLibrary.cpp.
//
// Invariants: available() is true only between a successful load() (dlopen, every symbol found,
// nvmlInit_v2 returned success) and unload(); query functions on an unavailable library return
// an empty list. Not thread-safe: use from one thread (the poller's).

#include <QList>
#include <QString>

#include "gpu/GpuDevice.h"

namespace hearth::app {

class NvmlLibrary {
public:
    static constexpr const char* kDefaultName = "libnvidia-ml.so.1";

    explicit NvmlLibrary(QString libraryName = kDefaultName) : name_(std::move(libraryName)) {}
    ~NvmlLibrary();
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    // Opens and initialises NVML. False (with why()) when the library or a GPU driver is absent.
    bool load();
    void unload();
    bool available() const { return handle_ != nullptr; }
    QString why() const { return why_; }

    // Every GPU NVML sees now; a device whose query fails is skipped, a field that fails is -1.
    QList<GpuDevice> devices();

private:
    struct Api;
    QString name_;
    QString why_;
    void* handle_ = nullptr;
    Api* api_ = nullptr;
};

}  // namespace hearth::app
