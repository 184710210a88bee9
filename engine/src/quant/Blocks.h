#pragma once
// ggml's quantized block layouts, byte for byte as GGUF files store them (little-endian).
//
// Invariants: each struct's size equals the type size in core/TensorType (static_asserts below);
// blocks are packed with 2-byte alignment at most (4 for BlockQ8_K), so an array of blocks is the
// exact byte image of a tensor row. Element i of a block is described next to each struct; "d" is
// the block (or super-block) scale, stored as IEEE half unless noted.

#include <cstdint>

#include "core/Half.h"

namespace hearth::quant {

constexpr int kQK = 32;    // elements per block of the 32-element ("legacy") types
constexpr int kQKK = 256;  // elements per super-block of the k-quants

// x[i] = (q[i] - 8) * d; q[i] is the low nibble of qs[i] for i < 16, the high nibble of qs[i-16] otherwise.
struct BlockQ4_0 {
    f16_t d;
    uint8_t qs[16];
};
// x[i] = q[i] * d + m; nibbles as in Q4_0.
struct BlockQ4_1 {
    f16_t d, m;
    uint8_t qs[16];
};
// x[i] = (q[i] - 16) * d; q[i] = nibble (as Q4_0) | bit i of the little-endian u32 qh, shifted to bit 4.
struct BlockQ5_0 {
    f16_t d;
    uint8_t qh[4];
    uint8_t qs[16];
};
// x[i] = q[i] * d + m; bits as in Q5_0.
struct BlockQ5_1 {
    f16_t d, m;
    uint8_t qh[4];
    uint8_t qs[16];
};
// x[i] = qs[i] * d.
struct BlockQ8_0 {
    f16_t d;
    int8_t qs[32];
};
// Activation partner of Q4_1/Q5_1: x[i] = qs[i] * d, and s = d * sum(qs) (rounded to half).
struct BlockQ8_1 {
    f16_t d, s;
    int8_t qs[32];
};

// 16 sub-blocks of 16. scales[j]: low nibble = scale, high nibble = min of sub-block j.
// Element e = 128*n + 32*k + l (n < 2, k < 4, l < 32) has q = (qs[32*n + l] >> 2*k) & 3 and lies in
// sub-block e / 16; x = d * scale * q - dmin * min.
struct BlockQ2_K {
    uint8_t scales[16];
    uint8_t qs[64];
    f16_t d, dmin;
};
// 16 sub-blocks of 16 with signed 6-bit scales (stored + 32, packed in 12 bytes, see KScales.h).
// Element e = 128*n + 32*k + l: low bits (qs[32*n + l] >> 2*k) & 3, high bit = bit (4*n + k) of
// hmask[l]; x = d * (scale - 32) * (low - (high ? 0 : 4)).
struct BlockQ3_K {
    uint8_t hmask[32];
    uint8_t qs[64];
    uint8_t scales[12];
    f16_t d;
};
// 8 sub-blocks of 32 with 6-bit scale and min (packed in 12 bytes, see KScales.h).
// Element e = 64*c + 32*h + l (c < 4, h < 2, l < 32) has q = (qs[32*c + l] >> 4*h) & 15 and lies in
// sub-block 2*c + h; x = d * scale * q - dmin * min.
struct BlockQ4_K {
    f16_t d, dmin;
    uint8_t scales[12];
    uint8_t qs[128];
};
// As Q4_K plus a fifth bit: bit (2*c + h) of qh[l], worth 16.
struct BlockQ5_K {
    f16_t d, dmin;
    uint8_t scales[12];
    uint8_t qh[32];
    uint8_t qs[128];
};
// 16 sub-blocks of 16 with signed 8-bit scales. Element e = 128*n + 32*k + l: low nibble from
// ql[64*n + 32*(k & 1) + l] (low nibble for k < 2, high nibble for k >= 2), high 2 bits
// (qh[32*n + l] >> 2*k) & 3; q = low | high << 4; x = d * scales[e / 16] * (q - 32).
struct BlockQ6_K {
    uint8_t ql[128];
    uint8_t qh[64];
    int8_t scales[16];
    f16_t d;
};
// Activation partner of the k-quants: x[i] = qs[i] * d (d is a float), bsums[j] = sum of qs[16j..16j+15].
struct BlockQ8_K {
    float d;
    int8_t qs[256];
    int16_t bsums[16];
};

static_assert(sizeof(BlockQ4_0) == 18 && sizeof(BlockQ4_1) == 20 && sizeof(BlockQ5_0) == 22 &&
              sizeof(BlockQ5_1) == 24 && sizeof(BlockQ8_0) == 34 && sizeof(BlockQ8_1) == 36);
static_assert(sizeof(BlockQ2_K) == 84 && sizeof(BlockQ3_K) == 110 && sizeof(BlockQ4_K) == 144 &&
              sizeof(BlockQ5_K) == 176 && sizeof(BlockQ6_K) == 210 && sizeof(BlockQ8_K) == 292);

}  // namespace hearth::quant
