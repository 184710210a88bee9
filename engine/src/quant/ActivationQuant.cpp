#include "quant/ActivationQuant.h"

#include <cmath>
#include <cstring>

#include "quant/ScaleSearch.h"

namespace hearth::quant {
namespace {

// Shared by Q8_0 and Q8_1: returns the unrounded d.
float quantizeBlock32(const float* x, int8_t* q) {
    float amax = 0;
    for (int j = 0; j < 32; ++j) amax = std::fmax(amax, std::fabs(x[j]));
    const float d = amax / 127.0f;
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    for (int j = 0; j < 32; ++j) q[j] = static_cast<int8_t>(nearestInt(x[j] * id));
    return d;
}

}  // namespace

void quantizeActQ8_0(const float* x, BlockQ8_0* y, int64_t n) {
    for (int64_t i = 0; i < n / 32; ++i, x += 32) y[i].d = f32ToF16(quantizeBlock32(x, y[i].qs));
}

void quantizeActQ8_1(const float* x, BlockQ8_1* y, int64_t n) {
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        const float d = quantizeBlock32(x, y[i].qs);
        int sum = 0;
        for (int j = 0; j < 32; ++j) sum += y[i].qs[j];
        y[i].d = f32ToF16(d);
        y[i].s = f32ToF16(d * static_cast<float>(sum));
    }
}

void quantizeActQ8_K(const float* x, BlockQ8_K* y, int64_t n) {
    for (int64_t i = 0; i < n / 256; ++i, x += 256) {
        float amax = 0, vmax = 0;
        for (int j = 0; j < 256; ++j)
            if (std::fabs(x[j]) > amax) amax = std::fabs(x[j]), vmax = x[j];
        if (amax == 0) {
            std::memset(&y[i], 0, sizeof(BlockQ8_K));
            continue;
        }
        const float iscale = -127.0f / vmax;
        for (int j = 0; j < 256; ++j) {
            const int v = nearestInt(iscale * x[j]);
            y[i].qs[j] = static_cast<int8_t>(v < 127 ? v : 127);
        }
        for (int g = 0; g < 16; ++g) {
            int s = 0;
            for (int j = 0; j < 16; ++j) s += y[i].qs[16 * g + j];
            y[i].bsums[g] = static_cast<int16_t>(s);
        }
        y[i].d = 1.0f / iscale;
    }
}

}  // namespace hearth::quant
