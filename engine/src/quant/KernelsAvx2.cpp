// The AVX2 + FMA + F16C variant (this file is compiled with -mavx2 -mfma -mf16c).
#include "quant/KernelSet.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#define HEARTH_X86_AVX512 0
#define HEARTH_X86_NS avx2
#define HEARTH_X86_NAME "avx2"
#include "quant/X86Kernels.inl"

namespace hearth::quant::detail {
const KernelSet* rawAvx2Kernels() { return avx2::kernelSet(); }
}  // namespace hearth::quant::detail
#else
namespace hearth::quant::detail {
const KernelSet* rawAvx2Kernels() { return nullptr; }
}  // namespace hearth::quant::detail
#endif
