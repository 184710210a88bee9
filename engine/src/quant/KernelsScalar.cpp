// The portable variant: activations in ggml's own block formats, one reference dot product
// (DotScalar) per output.
#include <cstring>

#include "core/Half.h"
#include "quant/ActivationQuant.h"
#include "quant/DotScalar.h"
#include "quant/KernelSet.h"

namespace hearth::quant {
namespace {

uint64_t align64(uint64_t n) { return (n + 63) / 64 * 64; }

uint64_t bytesQ8_0(int64_t cols) { return align64(static_cast<uint64_t>(cols / 32) * sizeof(BlockQ8_0)); }
uint64_t bytesQ8_1(int64_t cols) { return align64(static_cast<uint64_t>(cols / 32) * sizeof(BlockQ8_1)); }
uint64_t bytesQ8_K(int64_t cols) { return align64(static_cast<uint64_t>(cols / 256) * sizeof(BlockQ8_K)); }
uint64_t bytesHalf(int64_t cols) { return align64(static_cast<uint64_t>(cols) * 2); }

void actQ8_0(const float* x, int64_t cols, void* a) { quantizeActQ8_0(x, static_cast<BlockQ8_0*>(a), cols); }
void actQ8_1(const float* x, int64_t cols, void* a) { quantizeActQ8_1(x, static_cast<BlockQ8_1*>(a), cols); }
void actQ8_K(const float* x, int64_t cols, void* a) { quantizeActQ8_K(x, static_cast<BlockQ8_K*>(a), cols); }
void actF16(const float* x, int64_t cols, void* a) {
    auto* h = static_cast<f16_t*>(a);
    for (int64_t i = 0; i < cols; ++i) h[i] = f32ToF16(x[i]);
}
void actBF16(const float* x, int64_t cols, void* a) {
    auto* h = static_cast<bf16_t*>(a);
    for (int64_t i = 0; i < cols; ++i) h[i] = f32ToBf16(x[i]);
}

template <TensorType kType>
void tileScalar(const TileArgs& a) {
    static const DotFn dot = scalarDot(kType);
    for (int t = 0; t < a.nTok; ++t)
        for (int r = 0; r < a.nRows; ++r)
            a.y[t * a.ldy + r] = dot(a.w + r * a.wStride, a.act + t * a.actStride, a.cols);
}

KernelSet makeSet() {
    KernelSet s;
    s.name = "scalar";
    auto put = [&](TensorType t, uint64_t (*bytes)(int64_t), void (*act)(const float*, int64_t, void*),
                   void (*tile)(const TileArgs&)) { s.types[kernelIndex(t)] = TypeKernels{bytes, act, tile}; };
    put(TensorType::F32, nullptr, nullptr, tileScalar<TensorType::F32>);
    put(TensorType::F16, bytesHalf, actF16, tileScalar<TensorType::F16>);
    put(TensorType::BF16, bytesHalf, actBF16, tileScalar<TensorType::BF16>);
    put(TensorType::Q4_0, bytesQ8_0, actQ8_0, tileScalar<TensorType::Q4_0>);
    put(TensorType::Q5_0, bytesQ8_0, actQ8_0, tileScalar<TensorType::Q5_0>);
    put(TensorType::Q8_0, bytesQ8_0, actQ8_0, tileScalar<TensorType::Q8_0>);
    put(TensorType::Q4_1, bytesQ8_1, actQ8_1, tileScalar<TensorType::Q4_1>);
    put(TensorType::Q5_1, bytesQ8_1, actQ8_1, tileScalar<TensorType::Q5_1>);
    put(TensorType::Q2_K, bytesQ8_K, actQ8_K, tileScalar<TensorType::Q2_K>);
    put(TensorType::Q3_K, bytesQ8_K, actQ8_K, tileScalar<TensorType::Q3_K>);
    put(TensorType::Q4_K, bytesQ8_K, actQ8_K, tileScalar<TensorType::Q4_K>);
    put(TensorType::Q5_K, bytesQ8_K, actQ8_K, tileScalar<TensorType::Q5_K>);
    put(TensorType::Q6_K, bytesQ8_K, actQ8_K, tileScalar<TensorType::Q6_K>);
    return s;
}

}  // namespace

const KernelSet* scalarKernels() {
    static const KernelSet set = makeSet();
    return &set;
}

}  // namespace hearth::quant
