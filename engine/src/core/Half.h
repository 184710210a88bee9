#pragma once
// IEEE binary16 and bfloat16 conversions. Narrowing rounds to nearest, ties to even (the same
// result as F16C's vcvtps2ph with imm 0, which is what ggml's files were written with); NaN stays
// a quiet NaN; widening is exact. Hot loops use the SIMD paths in quant/, these are the reference.

#include <cstdint>
#include <cstring>

namespace hearth {

using f16_t = uint16_t;
using bf16_t = uint16_t;

inline uint32_t floatBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bitsFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

inline float f16ToF32(f16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    const uint32_t man = h & 0x3FFu;
    if (exp == 0) {
        // zero or subnormal: man * 2^-24 is exact in a float
        const float mag = static_cast<float>(man) * 5.9604644775390625e-8f;
        return sign ? -mag : mag;
    }
    if (exp == 31) return bitsFloat(sign | 0x7F800000u | (man << 13));
    return bitsFloat(sign | ((exp + 112u) << 23) | (man << 13));
}

inline f16_t f32ToF16(float f) {
    uint32_t u = floatBits(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    u &= 0x7FFFFFFFu;
    if (u >= 0x7F800000u) return sign | (u > 0x7F800000u ? 0x7E00u : 0x7C00u);  // NaN / inf
    if (u >= 0x477FF000u) return sign | 0x7C00u;  // >= 65520 rounds to infinity
    if (u < 0x38800000u) {
        // below the smallest normal half (2^-14): result is a subnormal count of 2^-24 units
        if (u < 0x33000000u) return sign;  // < 2^-25 (and 2^-25 itself ties to even 0)
        const uint32_t e = u >> 23;
        const uint32_t m = (u & 0x7FFFFFu) | 0x800000u;
        const uint32_t shift = 126u - e;   // value / 2^-24 = m >> shift
        uint32_t q = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1u);
        const uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return sign | static_cast<uint16_t>(q);
    }
    const uint32_t rounded = u + 0xFFFu + ((u >> 13) & 1u);  // round mantissa at bit 13, ties to even
    return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
}

inline float bf16ToF32(bf16_t h) { return bitsFloat(static_cast<uint32_t>(h) << 16); }

inline bf16_t f32ToBf16(float f) {
    const uint32_t u = floatBits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<bf16_t>((u >> 16) | 0x40u);  // quiet NaN
    return static_cast<bf16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

}  // namespace hearth
