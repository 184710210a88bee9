// The x86 kernel table, instantiated once per ISA (see KernelsAvx2.cpp / KernelsAvx512.cpp).
#include "quant/X86Common.inl"
#include "quant/X86Activations.inl"
#include "quant/X86Legacy.inl"
#include "quant/X86KQuants.inl"
#include "quant/X86Float.inl"

namespace hearth::quant::HEARTH_X86_NS {
namespace {

KernelSet makeSet(const char* name) {
    KernelSet s;
    s.name = name;
    auto put = [&](TensorType t, uint64_t (*bytes)(int64_t), void (*act)(const float*, int64_t, void*),
                   void (*tile)(const TileArgs&), uint64_t (*work)(int64_t) = nullptr) {
        s.types[kernelIndex(t)] = TypeKernels{bytes, act, tile, work};
    };
    put(TensorType::F32, nullptr, nullptr, tileDriver<FloatKernel<WF32>>);
    put(TensorType::F16, actBytesF32, actF16, tileDriver<FloatKernel<WF16>>);
    put(TensorType::BF16, actBytesF32, actBF16, tileDriver<FloatKernel<WBF16>>);
    put(TensorType::Q4_0, actBytesQ8, actQ8<false>, tileDriver<LegacyKernel<WQ4_0>>);
    put(TensorType::Q5_0, actBytesQ8, actQ8<false>, tileDriver<LegacyKernel<WQ5_0>>);
    put(TensorType::Q8_0, actBytesQ8, actQ8<false>, tileDriver<LegacyKernel<WQ8_0>>);
    put(TensorType::Q4_1, actBytesQ8, actQ8<true>, tileDriver<LegacyKernel<WQ4_1>>);
    put(TensorType::Q5_1, actBytesQ8, actQ8<true>, tileDriver<LegacyKernel<WQ5_1>>);
    put(TensorType::Q2_K, actBytesQ8K, actQ8K, KKernel<WQ2_K>::tile, KKernel<WQ2_K>::workBytes);
    put(TensorType::Q3_K, actBytesQ8K, actQ8K, KKernel<WQ3_K>::tile, KKernel<WQ3_K>::workBytes);
    put(TensorType::Q4_K, actBytesQ8K, actQ8K, KKernel<WQ4_K>::tile, KKernel<WQ4_K>::workBytes);
    put(TensorType::Q5_K, actBytesQ8K, actQ8K, KKernel<WQ5_K>::tile, KKernel<WQ5_K>::workBytes);
    put(TensorType::Q6_K, actBytesQ8K, actQ8K, KKernel<WQ6_K>::tile, KKernel<WQ6_K>::workBytes);
    return s;
}

}  // namespace

const KernelSet* kernelSet() {
    static const KernelSet set = makeSet(HEARTH_X86_NAME);
    return &set;
}

}  // namespace hearth::quant::HEARTH_X86_NS
