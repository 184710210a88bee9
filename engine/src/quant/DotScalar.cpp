#include "quant/DotScalar.h"

#include <cstring>

#include "quant/Blocks.h"
#include "quant/KScales.h"

namespace hearth::quant {
namespace {

float dotF32(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const float*>(w);
    const auto* y = static_cast<const float*>(a);
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += static_cast<double>(x[i] * y[i]);
    return static_cast<float>(s);
}

float dotF16(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const f16_t*>(w);
    const auto* y = static_cast<const f16_t*>(a);
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += static_cast<double>(f16ToF32(x[i]) * f16ToF32(y[i]));
    return static_cast<float>(s);
}

float dotBF16(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const bf16_t*>(w);
    const auto* y = static_cast<const bf16_t*>(a);
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += static_cast<double>(bf16ToF32(x[i]) * bf16ToF32(y[i]));
    return static_cast<float>(s);
}

void nibbles(const uint8_t* qs, int* q) {
    for (int j = 0; j < 16; ++j) q[j] = qs[j] & 15, q[j + 16] = qs[j] >> 4;
}

void highBits(const uint8_t* qh4, int* q) {
    uint32_t h;
    std::memcpy(&h, qh4, 4);
    for (int j = 0; j < 32; ++j) q[j] |= static_cast<int>((h >> j) & 1) << 4;
}

int dot32(const int* q, int offset, const int8_t* y) {
    int s = 0;
    for (int j = 0; j < 32; ++j) s += (q[j] - offset) * y[j];
    return s;
}

// The unsigned integer values of one 32-element weight block.
void valuesQ4_0(const BlockQ4_0& b, int* q) { nibbles(b.qs, q); }
void valuesQ5_0(const BlockQ5_0& b, int* q) { nibbles(b.qs, q), highBits(b.qh, q); }
void valuesQ8_0(const BlockQ8_0& b, int* q) {
    for (int j = 0; j < 32; ++j) q[j] = b.qs[j];
}
void valuesQ4_1(const BlockQ4_1& b, int* q) { nibbles(b.qs, q); }
void valuesQ5_1(const BlockQ5_1& b, int* q) { nibbles(b.qs, q), highBits(b.qh, q); }

// Q4_0 / Q5_0 / Q8_0 against Q8_0: (d_w * d_x) * sum((q - offset) * qx) per block.
template <class Block, void (*kValues)(const Block&, int*), int kOffset>
float dotOffset(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const Block*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float s = 0;
    int q[32];
    for (int64_t i = 0; i < n / 32; ++i) {
        kValues(x[i], q);
        s += (f16ToF32(x[i].d) * f16ToF32(y[i].d)) * static_cast<float>(dot32(q, kOffset, y[i].qs));
    }
    return s;
}

// Q4_1 / Q5_1 against Q8_1: (d_w * d_x) * sum(q * qx) + m_w * s_x per block.
template <class Block, void (*kValues)(const Block&, int*)>
float dotWithMin(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const Block*>(w);
    const auto* y = static_cast<const BlockQ8_1*>(a);
    float s = 0;
    int q[32];
    for (int64_t i = 0; i < n / 32; ++i) {
        kValues(x[i], q);
        s += (f16ToF32(x[i].d) * f16ToF32(y[i].d)) * static_cast<float>(dot32(q, 0, y[i].qs)) +
             f16ToF32(x[i].m) * f16ToF32(y[i].s);
    }
    return s;
}

// The k-quant dot products: sub-block integer sums with their integer scales, one float
// multiply per super-block.
float dotQ2_K(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const BlockQ2_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float s = 0;
    for (int64_t i = 0; i < n / 256; ++i) {
        int isum = 0, msum = 0;
        for (int e = 0; e < 256; ++e) {
            const int q = (x[i].qs[32 * (e / 128) + e % 32] >> (2 * ((e / 32) % 4))) & 3;
            isum += (x[i].scales[e / 16] & 15) * q * y[i].qs[e];
        }
        for (int j = 0; j < 16; ++j) msum += (x[i].scales[j] >> 4) * y[i].bsums[j];
        const float d = y[i].d * f16ToF32(x[i].d), dmin = y[i].d * f16ToF32(x[i].dmin);
        s += d * static_cast<float>(isum) - dmin * static_cast<float>(msum);
    }
    return s;
}

float dotQ3_K(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const BlockQ3_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float s = 0;
    int8_t sc[16];
    for (int64_t i = 0; i < n / 256; ++i) {
        unpackScalesQ3K(x[i].scales, sc);
        int isum = 0;
        for (int e = 0; e < 256; ++e) {
            const int nh = e / 128, k = (e / 32) % 4, l = e % 32;
            const int low = (x[i].qs[32 * nh + l] >> (2 * k)) & 3;
            const int high = (x[i].hmask[l] >> (4 * nh + k)) & 1;
            isum += sc[e / 16] * (low - (high ? 0 : 4)) * y[i].qs[e];
        }
        s += (y[i].d * f16ToF32(x[i].d)) * static_cast<float>(isum);
    }
    return s;
}

template <bool kFifth, class Block>
float dotQ45_K(const Block* x, const BlockQ8_K* y, int64_t n) {
    float s = 0;
    uint8_t sc[8], mn[8];
    for (int64_t i = 0; i < n / 256; ++i) {
        unpackScaleMinK4(x[i].scales, sc, mn);
        int isum = 0, msum = 0;
        for (int e = 0; e < 256; ++e) {
            const int c = e / 64, h = (e / 32) % 2, l = e % 32;
            int q = (x[i].qs[32 * c + l] >> (4 * h)) & 15;
            if constexpr (kFifth) q |= ((x[i].qh[l] >> (e / 32)) & 1) << 4;
            isum += sc[e / 32] * q * y[i].qs[e];
        }
        for (int j = 0; j < 16; ++j) msum += mn[j / 2] * y[i].bsums[j];
        const float d = y[i].d * f16ToF32(x[i].d), dmin = y[i].d * f16ToF32(x[i].dmin);
        s += d * static_cast<float>(isum) - dmin * static_cast<float>(msum);
    }
    return s;
}

float dotQ4_K(const void* w, const void* a, int64_t n) {
    return dotQ45_K<false>(static_cast<const BlockQ4_K*>(w), static_cast<const BlockQ8_K*>(a), n);
}

float dotQ5_K(const void* w, const void* a, int64_t n) {
    return dotQ45_K<true>(static_cast<const BlockQ5_K*>(w), static_cast<const BlockQ8_K*>(a), n);
}

float dotQ6_K(const void* w, const void* a, int64_t n) {
    const auto* x = static_cast<const BlockQ6_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float s = 0;
    for (int64_t i = 0; i < n / 256; ++i) {
        int isum = 0;
        for (int e = 0; e < 256; ++e) {
            const int nh = e / 128, k = (e / 32) % 4, l = e % 32;
            const uint8_t lb = x[i].ql[64 * nh + 32 * (k & 1) + l];
            const int q = ((k < 2 ? lb & 15 : lb >> 4) | (((x[i].qh[32 * nh + l] >> (2 * k)) & 3) << 4)) - 32;
            isum += x[i].scales[e / 16] * q * y[i].qs[e];
        }
        s += (y[i].d * f16ToF32(x[i].d)) * static_cast<float>(isum);
    }
    return s;
}

}  // namespace

DotFn scalarDot(TensorType t) {
    switch (t) {
        case TensorType::F32: return dotF32;
        case TensorType::F16: return dotF16;
        case TensorType::BF16: return dotBF16;
        case TensorType::Q4_0: return dotOffset<BlockQ4_0, valuesQ4_0, 8>;
        case TensorType::Q4_1: return dotWithMin<BlockQ4_1, valuesQ4_1>;
        case TensorType::Q5_0: return dotOffset<BlockQ5_0, valuesQ5_0, 16>;
        case TensorType::Q5_1: return dotWithMin<BlockQ5_1, valuesQ5_1>;
        case TensorType::Q8_0: return dotOffset<BlockQ8_0, valuesQ8_0, 0>;
        case TensorType::Q2_K: return dotQ2_K;
        case TensorType::Q3_K: return dotQ3_K;
        case TensorType::Q4_K: return dotQ4_K;
        case TensorType::Q5_K: return dotQ5_K;
        case TensorType::Q6_K: return dotQ6_K;
        default: return nullptr;
    }
}

}  // namespace hearth::quant
