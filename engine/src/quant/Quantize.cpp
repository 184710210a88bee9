#include "quant/Quantize.h"

#include "core/Half.h"

namespace hearth::quant {

bool canQuantize(TensorType t) {
    switch (t) {
        case TensorType::F32: case TensorType::F16: case TensorType::BF16:
        case TensorType::Q4_0: case TensorType::Q4_1: case TensorType::Q5_0: case TensorType::Q5_1:
        case TensorType::Q8_0:
        case TensorType::Q2_K: case TensorType::Q3_K: case TensorType::Q4_K: case TensorType::Q5_K:
        case TensorType::Q6_K:
            return true;
        default:
            return false;
    }
}

bool quantize(TensorType t, const float* x, void* dst, int64_t n, const float* importance) {
    if (!canQuantize(t) || n < 0 || n % traits(t).blockSize != 0) return false;
    switch (t) {
        case TensorType::F32: __builtin_memcpy(dst, x, static_cast<size_t>(n) * 4); break;
        case TensorType::F16: {
            auto* h = static_cast<f16_t*>(dst);
            for (int64_t i = 0; i < n; ++i) h[i] = f32ToF16(x[i]);
            break;
        }
        case TensorType::BF16: {
            auto* h = static_cast<bf16_t*>(dst);
            for (int64_t i = 0; i < n; ++i) h[i] = f32ToBf16(x[i]);
            break;
        }
        case TensorType::Q4_0: quantizeQ4_0(x, dst, n, importance); break;
        case TensorType::Q4_1: quantizeQ4_1(x, dst, n, importance); break;
        case TensorType::Q5_0: quantizeQ5_0(x, dst, n, importance); break;
        case TensorType::Q5_1: quantizeQ5_1(x, dst, n, importance); break;
        case TensorType::Q8_0: quantizeQ8_0(x, dst, n, importance); break;
        case TensorType::Q2_K: quantizeQ2_K(x, dst, n, importance); break;
        case TensorType::Q3_K: quantizeQ3_K(x, dst, n, importance); break;
        case TensorType::Q4_K: quantizeQ4_K(x, dst, n, importance); break;
        case TensorType::Q5_K: quantizeQ5_K(x, dst, n, importance); break;
        case TensorType::Q6_K: quantizeQ6_K(x, dst, n, importance); break;
        default: return false;
    }
    return true;
}

}  // namespace hearth::quant
