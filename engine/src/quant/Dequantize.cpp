#include "quant/Dequantize.h"

#include <cstring>

#include "quant/Blocks.h"
#include "quant/KScales.h"

namespace hearth::quant {
namespace {

void nibbles(const uint8_t* qs, int* q) {
    for (int j = 0; j < 16; ++j) {
        q[j] = qs[j] & 0x0F;
        q[j + 16] = qs[j] >> 4;
    }
}

void addHighBits(const uint8_t* qh4, int* q) {
    uint32_t qh;
    std::memcpy(&qh, qh4, 4);
    for (int j = 0; j < 32; ++j) q[j] |= static_cast<int>((qh >> j) & 1u) << 4;
}

void deqQ4_0(const BlockQ4_0* b, float* y, int64_t nb) {
    int q[32];
    for (int64_t i = 0; i < nb; ++i, y += 32) {
        const float d = f16ToF32(b[i].d);
        nibbles(b[i].qs, q);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(q[j] - 8) * d;
    }
}

void deqQ4_1(const BlockQ4_1* b, float* y, int64_t nb) {
    int q[32];
    for (int64_t i = 0; i < nb; ++i, y += 32) {
        const float d = f16ToF32(b[i].d), m = f16ToF32(b[i].m);
        nibbles(b[i].qs, q);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(q[j]) * d + m;
    }
}

void deqQ5_0(const BlockQ5_0* b, float* y, int64_t nb) {
    int q[32];
    for (int64_t i = 0; i < nb; ++i, y += 32) {
        const float d = f16ToF32(b[i].d);
        nibbles(b[i].qs, q);
        addHighBits(b[i].qh, q);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(q[j] - 16) * d;
    }
}

void deqQ5_1(const BlockQ5_1* b, float* y, int64_t nb) {
    int q[32];
    for (int64_t i = 0; i < nb; ++i, y += 32) {
        const float d = f16ToF32(b[i].d), m = f16ToF32(b[i].m);
        nibbles(b[i].qs, q);
        addHighBits(b[i].qh, q);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(q[j]) * d + m;
    }
}

void deqQ8_0(const BlockQ8_0* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += 32) {
        const float d = f16ToF32(b[i].d);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(b[i].qs[j]) * d;
    }
}

void deqQ8_1(const BlockQ8_1* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += 32) {
        const float d = f16ToF32(b[i].d);
        for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(b[i].qs[j]) * d;
    }
}

void deqQ2_K(const BlockQ2_K* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i) {
        const float d = f16ToF32(b[i].d), dmin = f16ToF32(b[i].dmin);
        for (int e = 0; e < 256; ++e) {
            const int n = e / 128, k = (e / 32) % 4, l = e % 32;
            const uint8_t sc = b[i].scales[e / 16];
            const float dl = d * static_cast<float>(sc & 0x0F);
            const float ml = dmin * static_cast<float>(sc >> 4);
            const int q = (b[i].qs[32 * n + l] >> (2 * k)) & 3;
            y[e] = dl * static_cast<float>(q) - ml;
        }
        y += 256;
    }
}

void deqQ3_K(const BlockQ3_K* b, float* y, int64_t nb) {
    int8_t sc[16];
    for (int64_t i = 0; i < nb; ++i) {
        const float d = f16ToF32(b[i].d);
        unpackScalesQ3K(b[i].scales, sc);
        for (int e = 0; e < 256; ++e) {
            const int n = e / 128, k = (e / 32) % 4, l = e % 32;
            const float dl = d * static_cast<float>(sc[e / 16]);
            const int low = (b[i].qs[32 * n + l] >> (2 * k)) & 3;
            const bool high = (b[i].hmask[l] >> (4 * n + k)) & 1;
            y[e] = dl * static_cast<float>(low - (high ? 0 : 4));
        }
        y += 256;
    }
}

void deqQ4_K(const BlockQ4_K* b, float* y, int64_t nb) {
    uint8_t sc[8], mn[8];
    for (int64_t i = 0; i < nb; ++i) {
        const float d = f16ToF32(b[i].d), dmin = f16ToF32(b[i].dmin);
        unpackScaleMinK4(b[i].scales, sc, mn);
        for (int e = 0; e < 256; ++e) {
            const int c = e / 64, h = (e / 32) % 2, l = e % 32, s = e / 32;
            const float dl = d * static_cast<float>(sc[s]);
            const float ml = dmin * static_cast<float>(mn[s]);
            const int q = (b[i].qs[32 * c + l] >> (4 * h)) & 0x0F;
            y[e] = dl * static_cast<float>(q) - ml;
        }
        y += 256;
    }
}

void deqQ5_K(const BlockQ5_K* b, float* y, int64_t nb) {
    uint8_t sc[8], mn[8];
    for (int64_t i = 0; i < nb; ++i) {
        const float d = f16ToF32(b[i].d), dmin = f16ToF32(b[i].dmin);
        unpackScaleMinK4(b[i].scales, sc, mn);
        for (int e = 0; e < 256; ++e) {
            const int c = e / 64, h = (e / 32) % 2, l = e % 32, s = e / 32;
            const float dl = d * static_cast<float>(sc[s]);
            const float ml = dmin * static_cast<float>(mn[s]);
            const int q = ((b[i].qs[32 * c + l] >> (4 * h)) & 0x0F) + (((b[i].qh[l] >> s) & 1) ? 16 : 0);
            y[e] = dl * static_cast<float>(q) - ml;
        }
        y += 256;
    }
}

void deqQ6_K(const BlockQ6_K* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i) {
        const float d = f16ToF32(b[i].d);
        for (int e = 0; e < 256; ++e) {
            const int n = e / 128, k = (e / 32) % 4, l = e % 32;
            const uint8_t lowByte = b[i].ql[64 * n + 32 * (k & 1) + l];
            const int low = k < 2 ? (lowByte & 0x0F) : (lowByte >> 4);
            const int high = (b[i].qh[32 * n + l] >> (2 * k)) & 3;
            const int q = (low | (high << 4)) - 32;
            y[e] = d * static_cast<float>(b[i].scales[e / 16]) * static_cast<float>(q);
        }
        y += 256;
    }
}

void deqQ8_K(const BlockQ8_K* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += 256)
        for (int j = 0; j < 256; ++j) y[j] = b[i].d * static_cast<float>(b[i].qs[j]);
}

}  // namespace

bool canDequantize(TensorType t) {
    switch (t) {
        case TensorType::F32: case TensorType::F16: case TensorType::BF16:
        case TensorType::Q4_0: case TensorType::Q4_1: case TensorType::Q5_0: case TensorType::Q5_1:
        case TensorType::Q8_0: case TensorType::Q8_1:
        case TensorType::Q2_K: case TensorType::Q3_K: case TensorType::Q4_K: case TensorType::Q5_K:
        case TensorType::Q6_K: case TensorType::Q8_K:
            return true;
        default:
            return false;
    }
}

bool dequantize(TensorType t, const void* src, float* dst, int64_t n) {
    if (!canDequantize(t) || n < 0 || n % traits(t).blockSize != 0) return false;
    const int64_t nb = n / traits(t).blockSize;
    switch (t) {
        case TensorType::F32: std::memcpy(dst, src, static_cast<size_t>(n) * 4); break;
        case TensorType::F16: {
            const auto* h = static_cast<const f16_t*>(src);
            for (int64_t i = 0; i < n; ++i) dst[i] = f16ToF32(h[i]);
            break;
        }
        case TensorType::BF16: {
            const auto* h = static_cast<const bf16_t*>(src);
            for (int64_t i = 0; i < n; ++i) dst[i] = bf16ToF32(h[i]);
            break;
        }
        case TensorType::Q4_0: deqQ4_0(static_cast<const BlockQ4_0*>(src), dst, nb); break;
        case TensorType::Q4_1: deqQ4_1(static_cast<const BlockQ4_1*>(src), dst, nb); break;
        case TensorType::Q5_0: deqQ5_0(static_cast<const BlockQ5_0*>(src), dst, nb); break;
        case TensorType::Q5_1: deqQ5_1(static_cast<const BlockQ5_1*>(src), dst, nb); break;
        case TensorType::Q8_0: deqQ8_0(static_cast<const BlockQ8_0*>(src), dst, nb); break;
        case TensorType::Q8_1: deqQ8_1(static_cast<const BlockQ8_1*>(src), dst, nb); break;
        case TensorType::Q2_K: deqQ2_K(static_cast<const BlockQ2_K*>(src), dst, nb); break;
        case TensorType::Q3_K: deqQ3_K(static_cast<const BlockQ3_K*>(src), dst, nb); break;
        case TensorType::Q4_K: deqQ4_K(static_cast<const BlockQ4_K*>(src), dst, nb); break;
        case TensorType::Q5_K: deqQ5_K(static_cast<const BlockQ5_K*>(src), dst, nb); break;
        case TensorType::Q6_K: deqQ6_K(static_cast<const BlockQ6_K*>(src), dst, nb); break;
        case TensorType::Q8_K: deqQ8_K(static_cast<const BlockQ8_K*>(src), dst, nb); break;
        default: return false;
    }
    return true;
}

}  // namespace hearth::quant
