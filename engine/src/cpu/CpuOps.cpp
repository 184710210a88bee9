#include "cpu/CpuOps.h"

#include <cmath>
#include <memory>

#include "core/Half.h"

namespace hearth::cpu {

void rmsNorm(const float* x, const float* w, int64_t n, float eps, float* out) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i] * x[i]);
    const float mean = static_cast<float>(sum / static_cast<double>(n));
    const float scale = 1.0f / std::sqrt(mean + eps);
    if (w) {
        for (int64_t i = 0; i < n; ++i) out[i] = (x[i] * scale) * w[i];
    } else {
        for (int64_t i = 0; i < n; ++i) out[i] = x[i] * scale;
    }
}

void ropeAngles(float pos, const ModelConfig& c, const float* freqFactors, float* cosOut, float* sinOut) {
    const uint32_t pairs = c.ropeDims / 2;
    const float thetaScale = std::pow(c.ropeFreqBase, -2.0f / static_cast<float>(c.ropeDims));
    float theta = pos;
    for (uint32_t i = 0; i < pairs; ++i) {
        const float extrap = freqFactors ? theta / freqFactors[i] : theta;
        const float t = c.ropeFreqScale * extrap;
        cosOut[i] = std::cos(t);
        sinOut[i] = std::sin(t);
        theta *= thetaScale;
    }
}

void applyRope(float* head, const ModelConfig& c, const float* cosv, const float* sinv) {
    const uint32_t pairs = c.ropeDims / 2;
    if (c.ropeStyle == RopeStyle::Normal) {
        for (uint32_t i = 0; i < pairs; ++i) {
            const float x0 = head[2 * i], x1 = head[2 * i + 1];
            head[2 * i] = x0 * cosv[i] - x1 * sinv[i];
            head[2 * i + 1] = x0 * sinv[i] + x1 * cosv[i];
        }
    } else {
        for (uint32_t i = 0; i < pairs; ++i) {
            const float x0 = head[i], x1 = head[i + pairs];
            head[i] = x0 * cosv[i] - x1 * sinv[i];
            head[i + pairs] = x0 * sinv[i] + x1 * cosv[i];
        }
    }
}

void siluMul(float* g, const float* u, int64_t n) {
    for (int64_t i = 0; i < n; ++i) g[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
}

void addInPlace(float* x, const float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) x[i] += y[i];
}

void softmax(float* x, int64_t n) {
    float mx = -INFINITY;
    for (int64_t i = 0; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
        const float e = std::exp(x[i] - mx);
        x[i] = e;
        sum += e;
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

const float* f16Table() {
    static const std::unique_ptr<float[]> table = [] {
        std::unique_ptr<float[]> t(new float[65536]);
        for (uint32_t i = 0; i < 65536; ++i) t[i] = f16ToF32(static_cast<f16_t>(i));
        return t;
    }();
    return table.get();
}

}  // namespace hearth::cpu
