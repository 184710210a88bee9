// Activation rows in the x86 variants' own layouts (values equal ggml's partner types exactly):
//   Q8 (partner of Q4_0/Q5_0/Q8_0 and of Q4_1/Q5_1): int8 qs[cols] | float d[nb] | aux[nb], where
//       aux is the int32 sum of the block's qs (Q8_0 partner) or the float s = half(d * sum) (Q8_1).
//   Q8K (partner of the k-quants): int8 qs[cols] | float d[nb] | int16 bsums[16 * nb].
//   F16 / BF16: the f32 values already rounded to half / bfloat16 (cols floats).
namespace hearth::quant::HEARTH_X86_NS {
namespace {

struct ActQ8View {
    const int8_t* qs;
    const float* d;
    const int32_t* sum;  // Q8_0 partner
    const float* s;      // Q8_1 partner (same storage)
    ActQ8View(const uint8_t* p, int64_t cols)
        : qs(reinterpret_cast<const int8_t*>(p)),
          d(reinterpret_cast<const float*>(p + cols)),
          sum(reinterpret_cast<const int32_t*>(p + cols) + cols / 32),
          s(reinterpret_cast<const float*>(p + cols) + cols / 32) {}
};

struct ActQ8KView {
    const int8_t* qs;
    const float* d;
    const int16_t* bsums;
    ActQ8KView(const uint8_t* p, int64_t cols)
        : qs(reinterpret_cast<const int8_t*>(p)),
          d(reinterpret_cast<const float*>(p + cols)),
          bsums(reinterpret_cast<const int16_t*>(p + cols + 4 * (cols / 256))) {}
};

uint64_t actBytesQ8(int64_t cols) { return align64(static_cast<uint64_t>(cols) + 8 * static_cast<uint64_t>(cols / 32)); }
uint64_t actBytesQ8K(int64_t cols) { return align64(static_cast<uint64_t>(cols) + 36 * static_cast<uint64_t>(cols / 256)); }
uint64_t actBytesF32(int64_t cols) { return align64(static_cast<uint64_t>(cols) * 4); }

inline float maxAbs(__m256 a, __m256 b, __m256 c, __m256 d) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 m = _mm256_max_ps(_mm256_andnot_ps(sign, a), _mm256_andnot_ps(sign, b));
    m = _mm256_max_ps(m, _mm256_max_ps(_mm256_andnot_ps(sign, c), _mm256_andnot_ps(sign, d)));
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

template <bool kQ8_1>
void actQ8(const float* x, int64_t cols, void* out) {
    const int64_t nb = cols / 32;
    auto* qs = static_cast<int8_t*>(out);
    auto* d = reinterpret_cast<float*>(qs + cols);
    auto* aux = reinterpret_cast<int32_t*>(d + nb);
    for (int64_t b = 0; b < nb; ++b) {
        const float* p = x + 32 * b;
        const __m256 v0 = _mm256_loadu_ps(p), v1 = _mm256_loadu_ps(p + 8);
        const __m256 v2 = _mm256_loadu_ps(p + 16), v3 = _mm256_loadu_ps(p + 24);
        const float amax = maxAbs(v0, v1, v2, v3);
        const float dd = amax / 127.0f;
        const __m256 id = _mm256_set1_ps(amax != 0.0f ? 127.0f / amax : 0.0f);
        const __m256i i0 = _mm256_cvtps_epi32(_mm256_mul_ps(v0, id)), i1 = _mm256_cvtps_epi32(_mm256_mul_ps(v1, id));
        const __m256i i2 = _mm256_cvtps_epi32(_mm256_mul_ps(v2, id)), i3 = _mm256_cvtps_epi32(_mm256_mul_ps(v3, id));
        const int sum = hsumI32(_mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3)));
        packQ8(i0, i1, i2, i3, qs + 32 * b);
        d[b] = roundToHalf(dd);
        if constexpr (kQ8_1) {
            const float s = roundToHalf(dd * static_cast<float>(sum));
            std::memcpy(&aux[b], &s, 4);
        } else {
            aux[b] = sum;
        }
    }
}

void actQ8K(const float* x, int64_t cols, void* out) {
    const int64_t nb = cols / 256;
    auto* qs = static_cast<int8_t*>(out);
    auto* d = reinterpret_cast<float*>(qs + cols);
    auto* bsums = reinterpret_cast<int16_t*>(d + nb);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t b = 0; b < nb; ++b) {
        const float* p = x + 256 * b;
        __m256 m = _mm256_setzero_ps();
        for (int k = 0; k < 256; k += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(p + k)));
        __m128 s4 = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
        s4 = _mm_max_ps(s4, _mm_movehl_ps(s4, s4));
        s4 = _mm_max_ss(s4, _mm_movehdup_ps(s4));
        const float amax = _mm_cvtss_f32(s4);
        if (amax == 0.0f) {
            std::memset(qs + 256 * b, 0, 256);
            std::memset(bsums + 16 * b, 0, 32);
            d[b] = 0;
            continue;
        }
        // The signed value of the first element of largest magnitude (ggml's tie rule).
        float vmax = 0;
        const __m256 am = _mm256_set1_ps(amax);
        for (int k = 0; k < 256; k += 8) {
            const __m256 v = _mm256_loadu_ps(p + k);
            const int mask = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, v), am, _CMP_EQ_OQ));
            if (mask) {
                vmax = p[k + __builtin_ctz(static_cast<unsigned>(mask))];
                break;
            }
        }
        const float iscale = -127.0f / vmax;
        const __m256 is = _mm256_set1_ps(iscale);
        const __m256i top = _mm256_set1_epi32(127);
        for (int g = 0; g < 8; ++g) {
            const float* q = p + 32 * g;
            __m256i i[4];
            for (int k = 0; k < 4; ++k)
                i[k] = _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(q + 8 * k), is)), top);
            bsums[16 * b + 2 * g] = static_cast<int16_t>(hsumI32(_mm256_add_epi32(i[0], i[1])));
            bsums[16 * b + 2 * g + 1] = static_cast<int16_t>(hsumI32(_mm256_add_epi32(i[2], i[3])));
            packQ8(i[0], i[1], i[2], i[3], qs + 256 * b + 32 * g);
        }
        d[b] = 1.0f / iscale;
    }
}

void actF16(const float* x, int64_t cols, void* out) {
    auto* y = static_cast<float*>(out);
    int64_t i = 0;
    for (; i + 8 <= cols; i += 8)
        _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT)));
    for (; i < cols; ++i) y[i] = roundToHalf(x[i]);
}

// Round to bfloat16 (nearest even; NaN stays a quiet NaN), kept as f32.
inline uint32_t bf16Round(uint32_t u) {
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (u | 0x00400000u) & 0xFFFF0000u;
    return (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
}

void actBF16(const float* x, int64_t cols, void* out) {
    auto* y = static_cast<float*>(out);
    int64_t i = 0;
    const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7FFF);
    const __m256i hiMask = _mm256_set1_epi32(static_cast<int>(0xFFFF0000u));
    const __m256i absMask = _mm256_set1_epi32(0x7FFFFFFF), inf = _mm256_set1_epi32(0x7F800000);
    const __m256i quiet = _mm256_set1_epi32(0x00400000);
    for (; i + 8 <= cols; i += 8) {
        const __m256i u = _mm256_castps_si256(_mm256_loadu_ps(x + i));
        const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
        const __m256i rounded = _mm256_and_si256(_mm256_add_epi32(u, _mm256_add_epi32(bias, lsb)), hiMask);
        const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, absMask), inf);
        const __m256i qnan = _mm256_and_si256(_mm256_or_si256(u, quiet), hiMask);
        _mm256_storeu_ps(y + i, _mm256_castsi256_ps(_mm256_blendv_epi8(rounded, qnan, nan)));
    }
    for (; i < cols; ++i) {
        uint32_t u;
        std::memcpy(&u, x + i, 4);
        u = bf16Round(u);
        std::memcpy(y + i, &u, 4);
    }
}

}  // namespace
}  // namespace hearth::quant::HEARTH_X86_NS
