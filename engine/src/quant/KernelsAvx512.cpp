// The AVX-512 variant (F, BW, VL, VNNI; this file is compiled with those -m flags): 256-bit integer
// dot products through VNNI, 512-bit float FMA.
#include "quant/KernelSet.h"

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512VNNI__)
#define HEARTH_X86_AVX512 1
#define HEARTH_X86_NS avx512
#define HEARTH_X86_NAME "avx512"
#include "quant/X86Kernels.inl"

namespace hearth::quant::detail {
const KernelSet* rawAvx512Kernels() { return avx512::kernelSet(); }
}  // namespace hearth::quant::detail
#else
namespace hearth::quant::detail {
const KernelSet* rawAvx512Kernels() { return nullptr; }
}  // namespace hearth::quant::detail
#endif
