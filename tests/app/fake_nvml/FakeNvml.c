/* A stand-in for libnvidia-ml.so.1 with two pretend GPUs, so the GPU monitor's NVML path runs in
 * tests on machines without NVIDIA hardware. Only the entry points Hearth resolves exist. The
 * second device cannot report a temperature (as some datacenter boards cannot). */
#include <stdio.h>
#include <string.h>

typedef struct { unsigned long long total, free, used; } FakeMemory;
typedef struct { unsigned int gpu, memory; } FakeUtilization;

static int initialised = 0;
static int devices[2];

int nvmlInit_v2(void) { initialised = 1; return 0; }
int nvmlShutdown(void) { initialised = 0; return 0; }
int nvmlDeviceGetCount_v2(unsigned int* count) {
    if (!initialised) return 1; /* NVML_ERROR_UNINITIALIZED */
    *count = 2;
    return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
    if (!initialised || index >= 2) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    *device = &devices[index];
    return 0;
}
static int indexOf(void* device) { return device == &devices[0] ? 0 : 1; }
int nvmlDeviceGetName(void* device, char* name, unsigned int length) {
    snprintf(name, length, "Fake GeForce %d", indexOf(device) == 0 ? 4090 : 3060);
    return 0;
}
int nvmlDeviceGetMemoryInfo(void* device, FakeMemory* memory) {
    const unsigned long long gib = 1024ull * 1024ull * 1024ull;
    memory->total = (indexOf(device) == 0 ? 24 : 12) * gib;
    memory->used = (indexOf(device) == 0 ? 5 : 1) * gib;
    memory->free = memory->total - memory->used;
    return 0;
}
int nvmlDeviceGetUtilizationRates(void* device, FakeUtilization* util) {
    util->gpu = indexOf(device) == 0 ? 37 : 3;
    util->memory = indexOf(device) == 0 ? 21 : 1;
    return 0;
}
int nvmlDeviceGetTemperature(void* device, int sensor, unsigned int* temperature) {
    if (indexOf(device) == 1) return 3; /* NVML_ERROR_NOT_SUPPORTED */
    *temperature = 61;
    return 0;
}
