// Tiles for the 32-element block types against Q8 activations.
//
// Weights are turned into unsigned bytes u = q + offset, so one u8 x s8 dot instruction serves
// every type; the offset comes back out exactly through the activation block sums
// (sum (u - o) * x = sum u * x - o * sum x), which seed the integer accumulator. Q8_0 without VNNI
// uses the sign trick instead (u8 x s8 multiplies would saturate for |q| up to 127 plus offset).
// Per block: exact integer dot, then y += (d_w * d_x) * dot (+ m_w * s_x for Q4_1/Q5_1).
namespace hearth::quant::HEARTH_X86_NS {
namespace {

struct WQ4_0 {
    static constexpr int kBytes = 18, kOffset = 8;
    static constexpr bool kMin = false, kSigned = false;
    static __m256i unpack(const uint8_t* b) { return nibbles32(b + 2); }
};
struct WQ5_0 {
    static constexpr int kBytes = 22, kOffset = 16;
    static constexpr bool kMin = false, kSigned = false;
    static __m256i unpack(const uint8_t* b) { return _mm256_or_si256(nibbles32(b + 6), bitsTo0x10(b + 2)); }
};
struct WQ8_0 {
    static constexpr int kBytes = 34, kOffset = kAvx512 ? 128 : 0;
    static constexpr bool kMin = false, kSigned = true;
    static __m256i unpack(const uint8_t* b) {
        const __m256i q = load256(b + 2);
        return kAvx512 ? _mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80))) : q;
    }
};
struct WQ4_1 {
    static constexpr int kBytes = 20, kOffset = 0;
    static constexpr bool kMin = true, kSigned = false;
    static __m256i unpack(const uint8_t* b) { return nibbles32(b + 4); }
};
struct WQ5_1 {
    static constexpr int kBytes = 24, kOffset = 0;
    static constexpr bool kMin = true, kSigned = false;
    static __m256i unpack(const uint8_t* b) { return _mm256_or_si256(nibbles32(b + 8), bitsTo0x10(b + 4)); }
};

// A weight block ready for dot products with several tokens.
template <class W>
struct LegacyRow {
    __m256i u, sgn;  // sgn: the raw signed weights (AVX2 Q8_0 only)
    float d, m;
    void load(const uint8_t* b) {
        const __m256i raw = W::unpack(b);
        if constexpr (W::kSigned && !kAvx512) {
            u = _mm256_sign_epi8(raw, raw);
            sgn = raw;
        } else {
            u = raw;
        }
        d = halfToFloat(b);
        if constexpr (W::kMin) m = halfToFloat(b + 2);
    }
    __m256i dot(__m256i seed, __m256i x) const {
        if constexpr (W::kSigned && !kAvx512) {
            const __m256i p = _mm256_maddubs_epi16(u, _mm256_sign_epi8(x, sgn));
            return _mm256_madd_epi16(p, _mm256_set1_epi16(1));
        } else {
            return dotU8S8(seed, u, x);
        }
    }
};

template <class W>
struct LegacyKernel {
    static constexpr int kMR4 = kAvx512 ? 4 : 2;
    static constexpr int kMR1 = 4;

    template <int MR, int NR>
    static void run(const TileArgs& a, int r0, int t0) {
        if constexpr (NR == 1) runOne<MR>(a, r0, t0);
        else runFour<MR>(a, r0, t0);
    }

    static __m256i seedFor(const ActQ8View& v, int64_t b) {
        if constexpr (W::kOffset != 0) return lane0(-W::kOffset * v.sum[b]);
        else return _mm256_setzero_si256();
    }

    // One token. Integer block sums are reduced exactly (four rows at a time) before they meet
    // the float scales, so no lane ever carries the offset correction into float rounding.
    template <int MR>
    static void runOne(const TileArgs& a, int r0, int t0) {
        static_assert(MR == 1 || MR == 4);
        const int64_t nb = a.cols / 32;
        const ActQ8View x(a.act + t0 * a.actStride, a.cols);
        const uint8_t* w0 = a.w + r0 * a.wStride;
        __m128 acc = _mm_setzero_ps();  // lane r: row r
        float acc1 = 0;
        for (int64_t b = 0; b < nb; ++b) {
            const __m256i xv = load256(x.qs + 32 * b);
            const __m256i seed = seedFor(x, b);
            const float dx = x.d[b];
            LegacyRow<W> row[MR];
            __m256i isum[MR];
            for (int r = 0; r < MR; ++r) {
                row[r].load(w0 + r * a.wStride + b * W::kBytes);
                isum[r] = row[r].dot(seed, xv);
            }
            if constexpr (MR == 4) {
                const __m128i tot = hsum4x8(isum[0], isum[1], isum[2], isum[3]);
                const __m128 dw = _mm_setr_ps(row[0].d, row[1].d, row[2].d, row[3].d);
                acc = _mm_fmadd_ps(_mm_mul_ps(dw, _mm_set1_ps(dx)), _mm_cvtepi32_ps(tot), acc);
                if constexpr (W::kMin)
                    acc = _mm_fmadd_ps(_mm_setr_ps(row[0].m, row[1].m, row[2].m, row[3].m), _mm_set1_ps(x.s[b]), acc);
            } else {
                acc1 += (row[0].d * dx) * static_cast<float>(hsumI32(isum[0]));
                if constexpr (W::kMin) acc1 += row[0].m * x.s[b];
            }
        }
        float* y = a.y + t0 * a.ldy + r0;
        if constexpr (MR == 4) _mm_storeu_ps(y, acc);
        else y[0] = acc1;
    }

    template <int MR>
    static void runFour(const TileArgs& a, int r0, int t0) {
        const int64_t nb = a.cols / 32;
        const ActQ8View x0(a.act + (t0 + 0) * a.actStride, a.cols), x1(a.act + (t0 + 1) * a.actStride, a.cols);
        const ActQ8View x2(a.act + (t0 + 2) * a.actStride, a.cols), x3(a.act + (t0 + 3) * a.actStride, a.cols);
        const uint8_t* w0 = a.w + r0 * a.wStride;
        __m128 acc[MR];
        for (int r = 0; r < MR; ++r) acc[r] = _mm_setzero_ps();
        for (int64_t b = 0; b < nb; ++b) {
            const __m256i xv0 = load256(x0.qs + 32 * b), xv1 = load256(x1.qs + 32 * b);
            const __m256i xv2 = load256(x2.qs + 32 * b), xv3 = load256(x3.qs + 32 * b);
            const __m256i s0 = seedFor(x0, b), s1 = seedFor(x1, b), s2 = seedFor(x2, b), s3 = seedFor(x3, b);
            const __m128 dx = _mm_setr_ps(x0.d[b], x1.d[b], x2.d[b], x3.d[b]);
            __m128 sx;
            if constexpr (W::kMin) sx = _mm_setr_ps(x0.s[b], x1.s[b], x2.s[b], x3.s[b]);
            for (int r = 0; r < MR; ++r) {
                LegacyRow<W> row;
                row.load(w0 + r * a.wStride + b * W::kBytes);
                const __m128i isum = hsum4x8(row.dot(s0, xv0), row.dot(s1, xv1), row.dot(s2, xv2), row.dot(s3, xv3));
                acc[r] = _mm_fmadd_ps(_mm_mul_ps(_mm_set1_ps(row.d), dx), _mm_cvtepi32_ps(isum), acc[r]);
                if constexpr (W::kMin) acc[r] = _mm_fmadd_ps(_mm_set1_ps(row.m), sx, acc[r]);
            }
        }
        for (int r = 0; r < MR; ++r) {
            alignas(16) float v[4];
            _mm_store_ps(v, acc[r]);
            for (int t = 0; t < 4; ++t) a.y[(t0 + t) * a.ldy + r0 + r] = v[t];
        }
    }
};

}  // namespace
}  // namespace hearth::quant::HEARTH_X86_NS
