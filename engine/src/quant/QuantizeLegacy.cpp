// Quantizers for the 32-element block types. Each block gets its own searched scale (and offset),
// which is then rounded to half precision and the integers re-rounded against the stored values.
#include <cstring>

#include "quant/Blocks.h"
#include "quant/Quantize.h"
#include "quant/ScaleSearch.h"

namespace hearth::quant {
namespace {

// Search a symmetric block, store the scale as half, re-round q against the stored scale.
f16_t symmetricBlock(const float* x, const float* imp, int qlo, int qhi, float window, int8_t* q) {
    float w[32];
    importanceWeights(x, 32, 0, Weighting::Square, w);
    scaleByImportance(w, imp, 32);
    const float s = fitSymmetric(x, w, 32, qlo, qhi, window, q);
    const f16_t d = f32ToF16(s);
    roundSymmetric(x, 32, f16ToF32(d), qlo, qhi, q);
    return d;
}

void affineBlock(const float* x, const float* imp, int qmax, f16_t& d, f16_t& m, uint8_t* q) {
    float w[32];
    importanceWeights(x, 32, rmsOf(x, 32), Weighting::RmsPlusAbs, w);
    scaleByImportance(w, imp, 32);
    const AffineFit f = fitAffine(x, w, 32, qmax, false, q);
    d = f32ToF16(f.scale);
    m = f32ToF16(f.offset);
    roundAffine(x, 32, f16ToF32(d), f16ToF32(m), qmax, q);
}

void packNibbles(const int* u, uint8_t* qs) {
    for (int j = 0; j < 16; ++j) qs[j] = static_cast<uint8_t>((u[j] & 15) | ((u[j + 16] & 15) << 4));
}

void packHighBits(const int* u, uint8_t* qh4) {
    uint32_t h = 0;
    for (int j = 0; j < 32; ++j) h |= static_cast<uint32_t>((u[j] >> 4) & 1) << j;
    std::memcpy(qh4, &h, 4);
}

// One packer per block type: the block's scale(s) plus its unsigned values u (0..2^bits - 1).
template <class Block>
void storeValues(Block& b, const int* u) {
    packNibbles(u, b.qs);
    if constexpr (requires { b.qh; }) packHighBits(u, b.qh);  // the 5-bit types
}

template <class Block, int kQlo, int kQhi>
void quantizeSymmetric(const float* x, void* dst, int64_t n, const float* imp, float window) {
    auto* b = static_cast<Block*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32, imp = imp ? imp + 32 : nullptr) {
        int8_t q[32];
        int u[32];
        b[i].d = symmetricBlock(x, imp, kQlo, kQhi, window, q);
        for (int j = 0; j < 32; ++j) u[j] = q[j] - kQlo;
        storeValues(b[i], u);
    }
}

template <class Block, int kQmax>
void quantizeWithMin(const float* x, void* dst, int64_t n, const float* imp) {
    auto* b = static_cast<Block*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32, imp = imp ? imp + 32 : nullptr) {
        uint8_t q[32];
        int u[32];
        affineBlock(x, imp, kQmax, b[i].d, b[i].m, q);
        for (int j = 0; j < 32; ++j) u[j] = q[j];
        storeValues(b[i], u);
    }
}

}  // namespace

void quantizeQ4_0(const float* x, void* dst, int64_t n, const float* imp) {
    quantizeSymmetric<BlockQ4_0, -8, 7>(x, dst, n, imp, 0.35f);
}
void quantizeQ5_0(const float* x, void* dst, int64_t n, const float* imp) {
    quantizeSymmetric<BlockQ5_0, -16, 15>(x, dst, n, imp, 0.25f);
}
void quantizeQ4_1(const float* x, void* dst, int64_t n, const float* imp) { quantizeWithMin<BlockQ4_1, 15>(x, dst, n, imp); }
void quantizeQ5_1(const float* x, void* dst, int64_t n, const float* imp) { quantizeWithMin<BlockQ5_1, 31>(x, dst, n, imp); }

void quantizeQ8_0(const float* x, void* dst, int64_t n, const float* imp) {
    auto* b = static_cast<BlockQ8_0*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32, imp = imp ? imp + 32 : nullptr) {
        int8_t q[32];
        b[i].d = symmetricBlock(x, imp, -127, 127, 0.02f, q);
        std::memcpy(b[i].qs, q, 32);
    }
}

}  // namespace hearth::quant
