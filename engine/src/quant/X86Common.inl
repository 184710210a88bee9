// Shared pieces of the x86 kernel variants. Included (once) by KernelsAvx2.cpp and
// KernelsAvx512.cpp, each compiled with its own -m flags and its own HEARTH_X86_NS namespace, so
// the two copies never meet at link time. Everything here has internal linkage; the standard
// library and core/Half.h's inline functions are deliberately not used (an inline function emitted
// here with AVX-512 instructions could be picked by the linker for plain code).
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "quant/Blocks.h"
#include "quant/KScales.h"
#include "quant/KernelSet.h"

namespace hearth::quant::HEARTH_X86_NS {
namespace {

constexpr bool kAvx512 = HEARTH_X86_AVX512 != 0;

inline uint64_t align64(uint64_t n) { return (n + 63) / 64 * 64; }
inline float halfToFloat(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}
inline float roundToHalf(float f) { return _cvtsh_ss(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)); }
inline float bf16BitsToFloat(uint16_t h) {
    const uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline __m128i load128(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }

// acc + sum of four u8 * s8 products per i32 lane. Without VNNI the i16 pair sums must not
// saturate: callers keep u <= 128 and |s| <= 127.
inline __m256i dotU8S8(__m256i acc, __m256i u, __m256i s) {
#if HEARTH_X86_AVX512
    return _mm256_dpbusd_epi32(acc, u, s);
#else
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)));
#endif
}

// acc + a0 * b0 + a1 * b1 per i32 lane (i16 inputs).
inline __m256i dotI16(__m256i acc, __m256i a, __m256i b) {
#if HEARTH_X86_AVX512
    return _mm256_dpwssd_epi32(acc, a, b);
#else
    return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
#endif
}

inline float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

inline int hsumI32(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

// The four lane totals of a, b, c, d (exact integers), as [sum a, sum b, sum c, sum d].
inline __m128i hsum4x8(__m256i a, __m256i b, __m256i c, __m256i d) {
    const __m256i ab = _mm256_hadd_epi32(a, b);
    const __m256i cd = _mm256_hadd_epi32(c, d);
    const __m256i abcd = _mm256_hadd_epi32(ab, cd);
    return _mm_add_epi32(_mm256_castsi256_si128(abcd), _mm256_extracti128_si256(abcd, 1));
}

inline __m256i lane0(int v) { return _mm256_zextsi128_si256(_mm_cvtsi32_si128(v)); }

// 32 nibbles as bytes: element j < 16 is the low nibble of qs[j], element j >= 16 the high one.
inline __m256i nibbles32(const uint8_t* qs) {
    const __m128i t = load128(qs);
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(t, 4), t), _mm256_set1_epi8(0x0F));
}

// Byte j = 0x10 where bit j of the little-endian u32 at p is set.
inline __m256i bitsTo0x10(const uint8_t* p) {
    uint32_t h;
    std::memcpy(&h, p, 4);
#if HEARTH_X86_AVX512
    return _mm256_maskz_set1_epi8(static_cast<__mmask32>(h), 0x10);
#else
    const __m256i shuf = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ull));
    __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(h)), shuf);
    v = _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
    return _mm256_and_si256(v, _mm256_set1_epi8(0x10));
#endif
}

// Shift each byte's bits so that bit `from` lands on bit `to` (other bits are garbage; mask after).
template <int kFrom, int kTo>
inline __m256i moveBit(__m256i v) {
    if constexpr (kTo > kFrom) return _mm256_slli_epi16(v, kTo - kFrom);
    else if constexpr (kTo < kFrom) return _mm256_srli_epi16(v, kFrom - kTo);
    else return v;
}

template <int C = 0, class F>
inline void forChunks(F&& f) {
    if constexpr (C < 8) {
        f(std::integral_constant<int, C>{});
        forChunks<C + 1>(f);
    }
}

// 32 floats -> 32 int8 in order (round to nearest even), also returning their sum.
inline void packQ8(__m256i i0, __m256i i1, __m256i i2, __m256i i3, int8_t* out) {
    const __m256i a = _mm256_packs_epi32(i0, i1);
    const __m256i b = _mm256_packs_epi32(i2, i3);
    const __m256i p = _mm256_packs_epi16(a, b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                        _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}

// Drives a micro-kernel over a tile: groups of 4 tokens with kMR4 rows, single tokens with kMR1
// rows, single rows for the remainders.
template <class K>
void tileDriver(const TileArgs& a) {
    int t = 0;
    for (; t + 4 <= a.nTok; t += 4) {
        int r = 0;
        for (; r + K::kMR4 <= a.nRows; r += K::kMR4) K::template run<K::kMR4, 4>(a, r, t);
        for (; r < a.nRows; ++r) K::template run<1, 4>(a, r, t);
    }
    for (; t < a.nTok; ++t) {
        int r = 0;
        for (; r + K::kMR1 <= a.nRows; r += K::kMR1) K::template run<K::kMR1, 1>(a, r, t);
        for (; r < a.nRows; ++r) K::template run<1, 1>(a, r, t);
    }
}

}  // namespace
}  // namespace hearth::quant::HEARTH_X86_NS
