#include "gpu/NvmlLibrary.h"

#include <dlfcn.h>

#include <cstring>
#include <memory>
#include <type_traits>

namespace hearth::app {

// NVML's C interface, as documented in NVIDIA's NVML API reference: functions return an int
// status (0 = success); a device is an opaque pointer.
namespace {
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlTemperatureGpu = 0;
constexpr unsigned kNameLength = 96;
struct NvmlMemory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
struct NvmlUtilization {
    unsigned int gpu;
    unsigned int memory;
};
}  // namespace

struct NvmlLibrary::Api {
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*getCount)(unsigned int*) = nullptr;
    NvmlReturn (*getHandle)(unsigned int, NvmlDevice*) = nullptr;
    NvmlReturn (*getName)(NvmlDevice, char*, unsigned int) = nullptr;
    NvmlReturn (*getMemory)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*getUtilization)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*getTemperature)(NvmlDevice, int, unsigned int*) = nullptr;
};

NvmlLibrary::~NvmlLibrary() { unload(); }

bool NvmlLibrary::load() {
    if (handle_) return true;
    void* handle = dlopen(name_.toLocal8Bit().constData(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        why_ = QString("NVML not found (%1): no NVIDIA driver; running on the CPU").arg(name_);
        return false;
    }
    auto api = std::make_unique<Api>();
    bool missing = false;
    auto resolve = [&](auto& fn, const char* symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, symbol));
        if (!fn) missing = true;
    };
    resolve(api->init, "nvmlInit_v2");
    resolve(api->shutdown, "nvmlShutdown");
    resolve(api->getCount, "nvmlDeviceGetCount_v2");
    resolve(api->getHandle, "nvmlDeviceGetHandleByIndex_v2");
    resolve(api->getName, "nvmlDeviceGetName");
    resolve(api->getMemory, "nvmlDeviceGetMemoryInfo");
    resolve(api->getUtilization, "nvmlDeviceGetUtilizationRates");
    resolve(api->getTemperature, "nvmlDeviceGetTemperature");
    if (missing) {
        why_ = QString("%1 lacks NVML functions this build needs (driver too old)").arg(name_);
        dlclose(handle);
        return false;
    }
    if (const NvmlReturn rc = api->init(); rc != kNvmlSuccess) {
        why_ = QString("NVML did not start (code %1): no usable NVIDIA GPU").arg(rc);
        dlclose(handle);
        return false;
    }
    handle_ = handle;
    api_ = api.release();
    why_.clear();
    return true;
}

void NvmlLibrary::unload() {
    if (!handle_) return;
    api_->shutdown();
    dlclose(handle_);
    delete api_;
    api_ = nullptr;
    handle_ = nullptr;
}

QList<GpuDevice> NvmlLibrary::devices() {
    QList<GpuDevice> out;
    if (!handle_) return out;
    unsigned int count = 0;
    if (api_->getCount(&count) != kNvmlSuccess) return out;
    for (unsigned int i = 0; i < count; ++i) {
        NvmlDevice device = nullptr;
        if (api_->getHandle(i, &device) != kNvmlSuccess) continue;
        GpuDevice d;
        d.index = int(i);
        char name[kNameLength] = {};
        if (api_->getName(device, name, kNameLength) == kNvmlSuccess)
            d.name = QString::fromUtf8(name, int(strnlen(name, kNameLength)));
        else
            d.name = QString("GPU %1").arg(i);
        NvmlMemory memory{};
        if (api_->getMemory(device, &memory) == kNvmlSuccess) {
            d.totalBytes = memory.total;
            d.freeBytes = memory.free;
            d.usedBytes = memory.used;
        }
        NvmlUtilization util{};
        if (api_->getUtilization(device, &util) == kNvmlSuccess) {
            d.utilizationPercent = int(util.gpu);
            d.memoryUtilizationPercent = int(util.memory);
        }
        unsigned int temperature = 0;
        if (api_->getTemperature(device, kNvmlTemperatureGpu, &temperature) == kNvmlSuccess)
            d.temperatureC = int(temperature);
        out.append(d);
    }
    return out;
}

}  // namespace hearth::app
