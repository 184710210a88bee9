#pragma once
// Device-side decoding of GGUF weight blocks (the byte layouts of quant/Blocks.h), one 32-element
// "unit" at a time, for two consumers: integer dot products against int8 activations (the matrix-
// vector kernels) and dequantization to floats (embedding rows, f16 weights for cuBLAS).
//
// A decoded unit represents value(e) = d * s(e) * q[e] - dmin * m(e) + mw for e in 0..31, where
// s/m are the integer scale/min of its lower (e < 16) or upper half. Dequantization rounds each
// product separately, in the order the CPU reference does ((d * s) * q - dmin * m), so embedding
// rows match the CPU's exactly.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace hearth::cuda {

struct Unit {
    int q[8];      // 32 signed 8-bit values; element 4w + b is byte b of q[w]
    int s0, s1;    // integer scales of the lower / upper 16 elements
    int m0, m1;    // integer mins (k-quants with a min), else 0
    float d, dmin, mw;
};

// How a type's unit combines with an activation unit (see unitDot).
enum UnitKind { kLegacy = 0, kLegacyMin = 1, kKNoMin = 2, kKMin = 3 };

__device__ __forceinline__ float h2f(uint32_t h) { return __half2float(__ushort_as_half(static_cast<unsigned short>(h))); }
__device__ __forceinline__ uint32_t ld16(const uint8_t* p) { return *reinterpret_cast<const uint16_t*>(p); }
__device__ __forceinline__ uint32_t ld32(const uint8_t* p) { return *reinterpret_cast<const uint32_t*>(p); }
__device__ __forceinline__ uint32_t ld32h(const uint8_t* p) { return ld16(p) | (ld16(p + 2) << 16); }  // 2-byte aligned

// Bits 0..3 of x moved to bit 0 of bytes 0..3.
__device__ __forceinline__ uint32_t spreadBits(uint32_t x) {
    return (x & 1u) | ((x & 2u) << 7) | ((x & 4u) << 14) | ((x & 8u) << 21);
}

__device__ __forceinline__ void setScales(Unit& o, int s0, int s1, int m0, int m1, float d, float dmin, float mw) {
    o.s0 = s0; o.s1 = s1; o.m0 = m0; o.m1 = m1; o.d = d; o.dmin = dmin; o.mw = mw;
}

// Scale and min of sub-block j (0..7) of the 12-byte packed 6-bit k-quant scales.
__device__ __forceinline__ void kScaleMin(const uint8_t* s, int j, int& sc, int& m) {
    if (j < 4) {
        sc = s[j] & 63;
        m = s[j + 4] & 63;
    } else {
        sc = (s[j + 4] & 15) | ((s[j - 4] >> 6) << 4);
        m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
    }
}

// Q3_K's 16 signed 6-bit scales (stored + 32) in 12 bytes.
__device__ __forceinline__ int q3Scale(const uint8_t* s, int i) {
    const int lo = (s[i & 7] >> (4 * (i >> 3))) & 15;
    const int hi = (s[8 + (i & 3)] >> (2 * (i >> 2))) & 3;
    return (lo | (hi << 4)) - 32;
}

// Each type decodes a unit j of the block at b in two parts: scales() sets the unit's scales and
// mins, word(w) returns elements 4w..4w+3 as four signed bytes (w in 0..7, any w independently, so
// a consumer can decode only the words it needs). unit() is both, for all eight words. raw(w) is
// the same four values as unsigned bytes plus kOffset each (word = raw - kOffset per byte), for
// consumers that fold the offset into a later subtraction.
template <class D>
struct QBase {
    // raw words 2p and 2p + 1 (types with 16-byte aligned blocks load them as one 8-byte word).
    __device__ static uint2 rawPair(const uint8_t* b, int j, int p) { return make_uint2(D::raw(b, j, 2 * p), D::raw(b, j, 2 * p + 1)); }
    __device__ static void unit(const uint8_t* b, int j, Unit& o) {
        D::scales(b, j, o);
#pragma unroll
        for (int w = 0; w < 8; ++w) o.q[w] = static_cast<int>(D::word(b, j, w));
    }
};

template <int TT> struct QType;

template <> struct QType<2> : QBase<QType<2>> {  // Q4_0: 16 bytes of nibbles, element i low, i + 16 high
    static constexpr int kElems = 32, kBytes = 18, kKind = kLegacy, kOffset = 8;
    __device__ static void scales(const uint8_t* b, int, Unit& o) { setScales(o, 1, 1, 0, 0, h2f(ld16(b)), 0.f, 0.f); }
    __device__ static uint32_t raw(const uint8_t* b, int, int w) { return (ld32h(b + 2 + 4 * (w & 3)) >> (4 * (w >> 2))) & 0x0F0F0F0Fu; }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) { return __vsub4(raw(b, j, w), 0x08080808u); }
};

template <> struct QType<3> : QBase<QType<3>> {  // Q4_1
    static constexpr int kElems = 32, kBytes = 20, kKind = kLegacyMin, kOffset = 0;
    __device__ static void scales(const uint8_t* b, int, Unit& o) {
        setScales(o, 1, 1, 0, 0, h2f(ld16(b)), 0.f, h2f(ld16(b + 2)));
    }
    __device__ static uint32_t word(const uint8_t* b, int, int w) {
        return (ld32(b + 4 + 4 * (w & 3)) >> (4 * (w >> 2))) & 0x0F0F0F0Fu;
    }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) { return word(b, j, w); }
};

template <> struct QType<6> : QBase<QType<6>> {  // Q5_0
    static constexpr int kElems = 32, kBytes = 22, kKind = kLegacy, kOffset = 16;
    __device__ static void scales(const uint8_t* b, int, Unit& o) { setScales(o, 1, 1, 0, 0, h2f(ld16(b)), 0.f, 0.f); }
    __device__ static uint32_t raw(const uint8_t* b, int, int w) {
        const int k = w & 3, half = w >> 2;
        const uint32_t nib = (ld32h(b + 6 + 4 * k) >> (4 * half)) & 0x0F0F0F0Fu;
        const uint32_t hb = spreadBits(ld32h(b + 2) >> (16 * half + 4 * k));
        return nib | (hb << 4);
    }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) { return __vsub4(raw(b, j, w), 0x10101010u); }
};

template <> struct QType<7> : QBase<QType<7>> {  // Q5_1
    static constexpr int kElems = 32, kBytes = 24, kKind = kLegacyMin, kOffset = 0;
    __device__ static void scales(const uint8_t* b, int, Unit& o) {
        setScales(o, 1, 1, 0, 0, h2f(ld16(b)), 0.f, h2f(ld16(b + 2)));
    }
    __device__ static uint32_t word(const uint8_t* b, int, int w) {
        const int k = w & 3, half = w >> 2;
        const uint32_t nib = (ld32(b + 8 + 4 * k) >> (4 * half)) & 0x0F0F0F0Fu;
        return nib | (spreadBits(ld32(b + 4) >> (16 * half + 4 * k)) << 4);
    }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) { return word(b, j, w); }
};

template <> struct QType<8> : QBase<QType<8>> {  // Q8_0
    static constexpr int kElems = 32, kBytes = 34, kKind = kLegacy, kOffset = 128;
    __device__ static void scales(const uint8_t* b, int, Unit& o) { setScales(o, 1, 1, 0, 0, h2f(ld16(b)), 0.f, 0.f); }
    __device__ static uint32_t word(const uint8_t* b, int, int w) { return ld32h(b + 2 + 4 * w); }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) { return word(b, j, w) ^ 0x80808080u; }
};

template <> struct QType<10> : QBase<QType<10>> {  // Q2_K: unit j covers elements 32j..32j+31 = (n = j/4, k = j%4)
    static constexpr int kElems = 256, kBytes = 84, kKind = kKMin, kOffset = 0;
    __device__ static void scales(const uint8_t* b, int j, Unit& o) {
        const int sa = b[2 * j], sb = b[2 * j + 1];
        setScales(o, sa & 15, sb & 15, sa >> 4, sb >> 4, h2f(ld16(b + 80)), h2f(ld16(b + 82)), 0.f);
    }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) {
        return (ld32(b + 16 + 32 * (j >> 2) + 4 * w) >> (2 * (j & 3))) & 0x03030303u;
    }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) { return word(b, j, w); }
};

template <> struct QType<11> : QBase<QType<11>> {  // Q3_K
    static constexpr int kElems = 256, kBytes = 110, kKind = kKNoMin, kOffset = 4;
    __device__ static void scales(const uint8_t* b, int j, Unit& o) {
        setScales(o, q3Scale(b + 96, 2 * j), q3Scale(b + 96, 2 * j + 1), 0, 0, h2f(ld16(b + 108)), 0.f, 0.f);
    }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) {  // 2 low bits + 4 × the high bit
        const int n = j >> 2, k = j & 3;
        return ((ld32h(b + 32 + 32 * n + 4 * w) >> (2 * k)) & 0x03030303u) | (((ld32h(b + 4 * w) >> (4 * n + k)) & 0x01010101u) << 2);
    }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) { return __vsub4(raw(b, j, w), 0x04040404u); }
};

template <> struct QType<12> : QBase<QType<12>> {  // Q4_K: unit j = sub-block j = (c = j/2, nibble h = j%2)
    static constexpr int kElems = 256, kBytes = 144, kKind = kKMin, kOffset = 0;
    __device__ static void scales(const uint8_t* b, int j, Unit& o) {
        int sc, m;
        kScaleMin(b + 4, j, sc, m);
        setScales(o, sc, sc, m, m, h2f(ld16(b)), h2f(ld16(b + 2)), 0.f);
    }
    // Unit j's four nibbles of a 4-byte word of quants (low nibbles for even j).
    __device__ static uint32_t nibbles(uint32_t v, int j) { return (v >> (4 * (j & 1))) & 0x0F0F0F0Fu; }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) { return nibbles(ld32(b + 16 + 32 * (j >> 1) + 4 * w), j); }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) { return word(b, j, w); }
    __device__ static uint2 rawPair(const uint8_t* b, int j, int p) {
        const uint2 v = *reinterpret_cast<const uint2*>(b + 16 + 32 * (j >> 1) + 8 * p);
        return make_uint2(nibbles(v.x, j), nibbles(v.y, j));
    }
    // All eight words with two 16-byte loads: every consumer's blocks start 16-byte aligned (144-byte
    // blocks in 16-byte aligned rows and buffers).
    __device__ static void unit(const uint8_t* b, int j, Unit& o) {
        scales(b, j, o);
        const uint4* q = reinterpret_cast<const uint4*>(b + 16 + 32 * (j >> 1));
        const uint4 v0 = q[0], v1 = q[1];
        const uint32_t w[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
#pragma unroll
        for (int i = 0; i < 8; ++i) o.q[i] = static_cast<int>(nibbles(w[i], j));
    }
};

template <> struct QType<13> : QBase<QType<13>> {  // Q5_K
    static constexpr int kElems = 256, kBytes = 176, kKind = kKMin, kOffset = 0;
    __device__ static void scales(const uint8_t* b, int j, Unit& o) {
        int sc, m;
        kScaleMin(b + 4, j, sc, m);
        setScales(o, sc, sc, m, m, h2f(ld16(b)), h2f(ld16(b + 2)), 0.f);
    }
    // Unit j's four 5-bit values from a 4-byte word of low nibbles and one of high bits.
    __device__ static uint32_t join(uint32_t lo, uint32_t hb, int j) {
        const int c = j >> 1, h = j & 1;
        return ((lo >> (4 * h)) & 0x0F0F0F0Fu) | (((hb >> (2 * c + h)) & 0x01010101u) << 4);
    }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) {
        return join(ld32(b + 48 + 32 * (j >> 1) + 4 * w), ld32(b + 16 + 4 * w), j);
    }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) { return word(b, j, w); }
    __device__ static uint2 rawPair(const uint8_t* b, int j, int p) {
        const uint2 lo = *reinterpret_cast<const uint2*>(b + 48 + 32 * (j >> 1) + 8 * p);
        const uint2 hb = *reinterpret_cast<const uint2*>(b + 16 + 8 * p);
        return make_uint2(join(lo.x, hb.x, j), join(lo.y, hb.y, j));
    }
    // 16-byte loads, as Q4_K (176-byte blocks keep the 16-byte alignment).
    __device__ static void unit(const uint8_t* b, int j, Unit& o) {
        scales(b, j, o);
        const uint4* q = reinterpret_cast<const uint4*>(b + 48 + 32 * (j >> 1));
        const uint4* hq = reinterpret_cast<const uint4*>(b + 16);
        const uint4 v0 = q[0], v1 = q[1], h0 = hq[0], h1 = hq[1];
        const uint32_t lo[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
        const uint32_t hi[8] = {h0.x, h0.y, h0.z, h0.w, h1.x, h1.y, h1.z, h1.w};
#pragma unroll
        for (int i = 0; i < 8; ++i) o.q[i] = static_cast<int>(join(lo[i], hi[i], j));
    }
};

template <> struct QType<14> : QBase<QType<14>> {  // Q6_K
    static constexpr int kElems = 256, kBytes = 210, kKind = kKNoMin, kOffset = 32;
    __device__ static void scales(const uint8_t* b, int j, Unit& o) {
        const auto* sc = reinterpret_cast<const int8_t*>(b + 192);
        setScales(o, sc[2 * j], sc[2 * j + 1], 0, 0, h2f(ld16(b + 208)), 0.f, 0.f);
    }
    __device__ static uint32_t raw(const uint8_t* b, int j, int w) {
        const int n = j >> 2, k = j & 3;
        const uint32_t lo = (ld32h(b + 64 * n + 32 * (k & 1) + 4 * w) >> (4 * (k >> 1))) & 0x0F0F0F0Fu;
        const uint32_t hi = (ld32h(b + 128 + 32 * n + 4 * w) >> (2 * k)) & 0x03030303u;
        return lo | (hi << 4);
    }
    __device__ static uint32_t word(const uint8_t* b, int j, int w) { return __vsub4(raw(b, j, w), 0x20202020u); }
};

__device__ __forceinline__ int sbyte(int word, int b) { return static_cast<int8_t>((word >> (8 * b)) & 0xFF); }

// The 32 values of a unit, rounded as the CPU dequantizes.
template <int Kind>
__device__ __forceinline__ void unitValues(const Unit& u, float* out) {
#pragma unroll
    for (int e = 0; e < 32; ++e) {
        const float q = static_cast<float>(sbyte(u.q[e >> 2], e & 3));
        const int s = e < 16 ? u.s0 : u.s1, m = e < 16 ? u.m0 : u.m1;
        if (Kind == kLegacy) {
            out[e] = __fmul_rn(q, u.d);
        } else if (Kind == kLegacyMin) {
            out[e] = __fadd_rn(__fmul_rn(q, u.d), u.mw);
        } else if (Kind == kKNoMin) {
            out[e] = __fmul_rn(__fmul_rn(u.d, static_cast<float>(s)), q);
        } else {
            out[e] = __fsub_rn(__fmul_rn(__fmul_rn(u.d, static_cast<float>(s)), q), __fmul_rn(u.dmin, static_cast<float>(m)));
        }
    }
}

// Dot product of a unit with one activation unit (a0, a1: 32 int8 values; da: its scale; sa: its
// Q8_1 sum d * sum(q)).
template <int Kind>
__device__ __forceinline__ float unitDot(const Unit& u, const int4& a0, const int4& a1, float da, float sa) {
    int lo = __dp4a(u.q[0], a0.x, 0);
    lo = __dp4a(u.q[1], a0.y, lo);
    lo = __dp4a(u.q[2], a0.z, lo);
    lo = __dp4a(u.q[3], a0.w, lo);
    int hi = __dp4a(u.q[4], a1.x, 0);
    hi = __dp4a(u.q[5], a1.y, hi);
    hi = __dp4a(u.q[6], a1.z, hi);
    hi = __dp4a(u.q[7], a1.w, hi);
    if (Kind == kLegacy) return (u.d * da) * static_cast<float>(lo + hi);
    if (Kind == kLegacyMin) return (u.d * da) * static_cast<float>(lo + hi) + u.mw * sa;
    if (Kind == kKNoMin) return da * (u.d * static_cast<float>(u.s0 * lo + u.s1 * hi));
    constexpr int ones = 0x01010101;
    int alo = __dp4a(ones, a0.x, 0);
    alo = __dp4a(ones, a0.y, alo);
    alo = __dp4a(ones, a0.z, alo);
    alo = __dp4a(ones, a0.w, alo);
    int ahi = __dp4a(ones, a1.x, 0);
    ahi = __dp4a(ones, a1.y, ahi);
    ahi = __dp4a(ones, a1.z, ahi);
    ahi = __dp4a(ones, a1.w, ahi);
    return da * (u.d * static_cast<float>(u.s0 * lo + u.s1 * hi) - u.dmin * static_cast<float>(u.m0 * alo + u.m1 * ahi));
}

}  // namespace hearth::cuda
