// Interim reference implementation (F32/F16 only) until the quantized kernels land in quant/.
#include "cpu/Matmul.h"

#include <cstdlib>
#include <cstring>

#include "core/Half.h"

namespace hearth::cpu {

MatmulScratch::~MatmulScratch() { std::free(data); }

void* MatmulScratch::reserve(uint64_t n) {
    if (n > bytes) {
        std::free(data);
        data = std::aligned_alloc(64, (n + 63) / 64 * 64);
        bytes = n;
    }
    return data;
}

bool matmulSupports(TensorType t) { return t == TensorType::F32 || t == TensorType::F16; }

void dequantizeRow(const WeightView& w, int64_t row, float* out) {
    if (w.type == TensorType::F32) {
        std::memcpy(out, static_cast<const float*>(w.data) + row * w.cols, w.cols * sizeof(float));
    } else {
        const auto* p = static_cast<const f16_t*>(w.data) + row * w.cols;
        for (int64_t i = 0; i < w.cols; ++i) out[i] = f16ToF32(p[i]);
    }
}

void matmul(const WeightView& w, const float* x, int64_t nTokens, float* y, ThreadPool& pool, MatmulScratch&) {
    pool.run(w.rows, [&](int64_t r, int) {
        if (w.type == TensorType::F32) {
            const float* wr = static_cast<const float*>(w.data) + r * w.cols;
            for (int64_t t = 0; t < nTokens; ++t) {
                const float* xr = x + t * w.cols;
                float s = 0;
                for (int64_t i = 0; i < w.cols; ++i) s += wr[i] * xr[i];
                y[t * w.rows + r] = s;
            }
        } else {
            const f16_t* wr = static_cast<const f16_t*>(w.data) + r * w.cols;
            for (int64_t t = 0; t < nTokens; ++t) {
                const float* xr = x + t * w.cols;
                float s = 0;
                for (int64_t i = 0; i < w.cols; ++i) s += f16ToF32(wr[i]) * f16ToF32(f32ToF16(xr[i]));
                y[t * w.rows + r] = s;
            }
        }
    });
}

}  // namespace hearth::cpu
