// Run-time choice of the kernel variant. The CPU checks live here, in a file compiled without any
// -m flags, so nothing from a SIMD file runs before its instructions are known to exist.
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "quant/KernelSet.h"

namespace hearth::quant {
namespace detail {
const KernelSet* rawAvx2Kernels();
const KernelSet* rawAvx512Kernels();
}  // namespace detail

namespace {

#if defined(__x86_64__)
// F16C from CPUID leaf 1 (ECX bit 29): clang's __builtin_cpu_supports has no "f16c".
bool cpuHasF16c() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}
#endif

bool cpuHasAvx2() {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpuHasF16c();
#else
    return false;
#endif
}

bool cpuHasAvx512() {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return cpuHasAvx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
#else
    return false;
#endif
}

const KernelSet& choose() {
    const char* cap = std::getenv("HEARTH_CPU_KERNELS");
    const bool allow512 = !cap || !*cap || !std::strcmp(cap, "avx512");
    const bool allow2 = allow512 || !std::strcmp(cap, "avx2");
    if (allow512)
        if (const KernelSet* k = avx512Kernels()) return *k;
    if (allow2)
        if (const KernelSet* k = avx2Kernels()) return *k;
    return *scalarKernels();
}

}  // namespace

const KernelSet* avx2Kernels() { return cpuHasAvx2() ? detail::rawAvx2Kernels() : nullptr; }
const KernelSet* avx512Kernels() { return cpuHasAvx512() ? detail::rawAvx512Kernels() : nullptr; }

const KernelSet& activeKernels() {
    static const KernelSet& k = choose();
    return k;
}

}  // namespace hearth::quant
