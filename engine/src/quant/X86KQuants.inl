// Tiles for the k-quants against Q8_K activations.
//
// A super-block is walked in 8 chunks of 32 elements. Each chunk's weights become unsigned bytes
// (Q3_K: q + 4, Q6_K: q + 32), are multiplied with the activation bytes into i16 pair sums, and
// those are multiplied by the chunk's integer sub-block scales into i32 lanes: exact integer
// sum_j scale_j * sum(q * x). The mins (Q2_K, Q4_K, Q5_K) or the offsets (Q3_K, Q6_K) come from
// the activation's per-16 sums; per super-block y += (d_x * d_w) * isum - (d_x * dmin_w) * msum.
namespace hearth::quant::HEARTH_X86_NS {
namespace {

// Scales of one weight super-block in the form the chunk loop wants.
struct KPrep {
    __m256i lo, hi;  // i16 scale sources for chunks 0-3 and 4-7 (see scalePattern)
    __m256i mins16;  // i16 per 16-element group: mins (k-quants with mins) or scales (offset types)
    float d, dmin;
};

// 32-element sub-blocks: lo holds the 8 scales as i16 in both 128-bit halves; chunk C uses scale C.
template <int C>
inline __m256i pattern32(const KPrep& p) {
    return _mm256_shuffle_epi8(p.lo, _mm256_set1_epi16(static_cast<short>(0x0100 + 0x0202 * C)));
}

// 16-element sub-blocks: lo/hi hold scales 0-7 / 8-15 as i16 in both halves; chunk C needs scale
// 2C in its low half and 2C + 1 in its high half.
template <int C>
inline __m256i pattern16(const KPrep& p) {
    constexpr int k = C % 4;
    const __m256i shuf = _mm256_setr_epi8(4 * k, 4 * k + 1, 4 * k, 4 * k + 1, 4 * k, 4 * k + 1, 4 * k, 4 * k + 1,
                                          4 * k, 4 * k + 1, 4 * k, 4 * k + 1, 4 * k, 4 * k + 1, 4 * k, 4 * k + 1,
                                          4 * k + 2, 4 * k + 3, 4 * k + 2, 4 * k + 3, 4 * k + 2, 4 * k + 3, 4 * k + 2,
                                          4 * k + 3, 4 * k + 2, 4 * k + 3, 4 * k + 2, 4 * k + 3, 4 * k + 2, 4 * k + 3,
                                          4 * k + 2, 4 * k + 3);
    return _mm256_shuffle_epi8(C < 4 ? p.lo : p.hi, shuf);
}

inline void splitScales16(KPrep& p, __m256i sc16) {
    p.lo = _mm256_permute4x64_epi64(sc16, 0x44);
    p.hi = _mm256_permute4x64_epi64(sc16, 0xEE);
}

// Q4_K / Q5_K scale bytes -> prep (8 scales, mins duplicated per 16-element group).
inline void prepScaleMin(KPrep& p, const uint8_t* b) {
    uint8_t sm[16];
    unpackScaleMinK4Words(b + 4, sm);
    const __m128i v = load128(sm);
    p.lo = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(v));
    const __m128i dup = _mm_setr_epi8(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    p.mins16 = _mm256_cvtepu8_epi16(_mm_shuffle_epi8(v, dup));
    p.d = halfToFloat(b), p.dmin = halfToFloat(b + 2);
}

struct WQ2_K {
    static constexpr int kBytes = 84, kShift = -1;  // -1: has mins
    static constexpr bool kSub16 = true;
    static void prep(KPrep& p, const uint8_t* b) {
        const __m128i s = load128(b);
        const __m128i m4 = _mm_set1_epi8(0x0F);
        splitScales16(p, _mm256_cvtepu8_epi16(_mm_and_si128(s, m4)));
        p.mins16 = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(s, 4), m4));
        p.d = halfToFloat(b + 80), p.dmin = halfToFloat(b + 82);
    }
    template <int C>
    static __m256i chunk(const uint8_t* b) {
        const __m256i q = load256(b + 16 + 32 * (C / 4));
        return _mm256_and_si256(_mm256_srli_epi16(q, 2 * (C % 4)), _mm256_set1_epi8(0x03));
    }
};

struct WQ3_K {
    static constexpr int kBytes = 110, kShift = 2;  // values are u - 4
    static constexpr bool kSub16 = true;
    static void prep(KPrep& p, const uint8_t* b) {
        uint32_t w[3];
        std::memcpy(w, b + 96, 12);
        const uint32_t m4 = 0x0F0F0F0Fu, m2 = 0x03030303u;
        const uint32_t s[4] = {(w[0] & m4) | ((w[2] & m2) << 4), (w[1] & m4) | (((w[2] >> 2) & m2) << 4),
                               ((w[0] >> 4) & m4) | (((w[2] >> 4) & m2) << 4),
                               ((w[1] >> 4) & m4) | (((w[2] >> 6) & m2) << 4)};
        const __m128i v = _mm_sub_epi8(load128(s), _mm_set1_epi8(32));
        const __m256i sc16 = _mm256_cvtepi8_epi16(v);
        splitScales16(p, sc16);
        p.mins16 = sc16;
        p.d = halfToFloat(b + 108), p.dmin = 0;
    }
    template <int C>
    static __m256i chunk(const uint8_t* b) {
        const __m256i q = load256(b + 32 + 32 * (C / 4));
        const __m256i low = _mm256_and_si256(_mm256_srli_epi16(q, 2 * (C % 4)), _mm256_set1_epi8(0x03));
        const __m256i high = _mm256_and_si256(moveBit<C, 2>(load256(b)), _mm256_set1_epi8(0x04));
        return _mm256_or_si256(low, high);
    }
};

struct WQ4_K {
    static constexpr int kBytes = 144, kShift = -1;
    static constexpr bool kSub16 = false;
    static void prep(KPrep& p, const uint8_t* b) { prepScaleMin(p, b); }
    template <int C>
    static __m256i chunk(const uint8_t* b) {
        const __m256i q = load256(b + 16 + 32 * (C / 2));
        return _mm256_and_si256(C % 2 ? _mm256_srli_epi16(q, 4) : q, _mm256_set1_epi8(0x0F));
    }
};

struct WQ5_K {
    static constexpr int kBytes = 176, kShift = -1;
    static constexpr bool kSub16 = false;
    static void prep(KPrep& p, const uint8_t* b) { prepScaleMin(p, b); }
    template <int C>
    static __m256i chunk(const uint8_t* b) {
        const __m256i q = load256(b + 48 + 32 * (C / 2));
        const __m256i low = _mm256_and_si256(C % 2 ? _mm256_srli_epi16(q, 4) : q, _mm256_set1_epi8(0x0F));
        const __m256i high = _mm256_and_si256(moveBit<C, 4>(load256(b + 16)), _mm256_set1_epi8(0x10));
        return _mm256_or_si256(low, high);
    }
};

struct WQ6_K {
    static constexpr int kBytes = 210, kShift = 5;  // values are u - 32
    static constexpr bool kSub16 = true;
    static void prep(KPrep& p, const uint8_t* b) {
        const __m256i sc16 = _mm256_cvtepi8_epi16(load128(b + 192));
        splitScales16(p, sc16);
        p.mins16 = sc16;
        p.d = halfToFloat(b + 208), p.dmin = 0;
    }
    template <int C>
    static __m256i chunk(const uint8_t* b) {
        constexpr int n = C / 4, k = C % 4;
        const __m256i l = load256(b + 64 * n + 32 * (k & 1));
        const __m256i low = _mm256_and_si256(k >= 2 ? _mm256_srli_epi16(l, 4) : l, _mm256_set1_epi8(0x0F));
        const __m256i high = _mm256_and_si256(moveBit<2 * k, 4>(load256(b + 128 + 32 * n)), _mm256_set1_epi8(0x30));
        return _mm256_or_si256(low, high);
    }
};

template <class W>
struct KKernel {
    static constexpr int kMR4 = kAvx512 ? 2 : 1;
    static constexpr int kMR1 = kAvx512 ? 4 : 2;  // one token: 4 rows reduce together (AVX-512)

    template <int C>
    static __m256i pattern(const KPrep& p) {
        if constexpr (W::kSub16) return pattern16<C>(p);
        else return pattern32<C>(p);
    }

    // One row, four tokens, one super-block: the exact integer totals meet the float scales.
    // (Shared by the plain and the packed paths, so both give identical results.)
    static void finishFour(const __m256i* is, const __m256i* ms, __m128 dx, float d, float dmin, __m128& acc) {
        const __m128i isum = hsum4x8(is[0], is[1], is[2], is[3]);
        acc = _mm_fmadd_ps(_mm_mul_ps(dx, _mm_set1_ps(d)), _mm_cvtepi32_ps(isum), acc);
        if constexpr (W::kShift < 0) {
            const __m128i msum = hsum4x8(ms[0], ms[1], ms[2], ms[3]);
            acc = _mm_fnmadd_ps(_mm_mul_ps(dx, _mm_set1_ps(dmin)), _mm_cvtepi32_ps(msum), acc);
        }
    }

    template <int MR, int NR>
    static void run(const TileArgs& a, int r0, int t0) {
        const int64_t nb = a.cols / 256;
        const int8_t* xq[NR];
        const float* xd[NR];
        const int16_t* xs[NR];
        for (int t = 0; t < NR; ++t) {
            const ActQ8KView v(a.act + (t0 + t) * a.actStride, a.cols);
            xq[t] = v.qs, xd[t] = v.d, xs[t] = v.bsums;
        }
        const uint8_t* w0 = a.w + r0 * a.wStride;
        __m128 acc4[MR];               // NR == 4: one lane per token
        __m128 one4 = _mm_setzero_ps();  // NR == 1, MR == 4: one lane per row
        float one[MR];                   // NR == 1, other MR
        for (int r = 0; r < MR; ++r) acc4[r] = _mm_setzero_ps(), one[r] = 0;
        for (int64_t b = 0; b < nb; ++b) {
            const uint8_t* blk[MR];
            KPrep p[MR];
            for (int r = 0; r < MR; ++r) {
                blk[r] = w0 + r * a.wStride + b * W::kBytes;
                W::prep(p[r], blk[r]);
            }
            __m256i is[MR][NR];
            for (int r = 0; r < MR; ++r)
                for (int t = 0; t < NR; ++t) is[r][t] = _mm256_setzero_si256();
            forChunks([&](auto cc) {
                constexpr int C = decltype(cc)::value;
                __m256i xv[NR];
                for (int t = 0; t < NR; ++t) xv[t] = load256(xq[t] + 256 * b + 32 * C);
                for (int r = 0; r < MR; ++r) {
                    const __m256i u = W::template chunk<C>(blk[r]);
                    const __m256i s = pattern<C>(p[r]);
                    for (int t = 0; t < NR; ++t) is[r][t] = dotI16(is[r][t], _mm256_maddubs_epi16(u, xv[t]), s);
                }
            });
            __m256i bs[NR];
            for (int t = 0; t < NR; ++t) bs[t] = load256(xs[t] + 16 * b);
            __m256i ms1[MR];  // NR == 1: the min sums per row
            for (int r = 0; r < MR; ++r) {
                __m256i ms[NR];
                for (int t = 0; t < NR; ++t) {
                    ms[t] = _mm256_madd_epi16(p[r].mins16, bs[t]);
                    if constexpr (W::kShift >= 0) is[r][t] = _mm256_sub_epi32(is[r][t], _mm256_slli_epi32(ms[t], W::kShift));
                }
                if constexpr (NR == 1) {
                    ms1[r] = ms[0];  // one token: reduced for all rows below
                } else {
                    const __m128 dx = _mm_setr_ps(xd[0][b], xd[1][b], xd[2][b], xd[3][b]);
                    finishFour(is[r], ms, dx, p[r].d, p[r].dmin, acc4[r]);
                }
            }
            if constexpr (NR == 1) {
                // Exact integer totals first, then one float multiply per row and super-block.
                const float dx = xd[0][b];
                if constexpr (MR == 4) {
                    const __m128 dw = _mm_mul_ps(_mm_set1_ps(dx), _mm_setr_ps(p[0].d, p[1].d, p[2].d, p[3].d));
                    one4 = _mm_fmadd_ps(dw, _mm_cvtepi32_ps(hsum4x8(is[0][0], is[1][0], is[2][0], is[3][0])), one4);
                    if constexpr (W::kShift < 0) {
                        const __m128 dm = _mm_mul_ps(_mm_set1_ps(dx), _mm_setr_ps(p[0].dmin, p[1].dmin, p[2].dmin, p[3].dmin));
                        one4 = _mm_fnmadd_ps(dm, _mm_cvtepi32_ps(hsum4x8(ms1[0], ms1[1], ms1[2], ms1[3])), one4);
                    }
                } else {
                    for (int r = 0; r < MR; ++r) {
                        one[r] += (dx * p[r].d) * static_cast<float>(hsumI32(is[r][0]));
                        if constexpr (W::kShift < 0) one[r] -= (dx * p[r].dmin) * static_cast<float>(hsumI32(ms1[r]));
                    }
                }
            }
        }
        if constexpr (NR == 1 && MR == 4) _mm_storeu_ps(a.y + t0 * a.ldy + r0, one4);
        for (int r = 0; r < MR; ++r) {
            if constexpr (NR == 1) {
                if constexpr (MR != 4) a.y[t0 * a.ldy + r0 + r] = one[r];
            } else {
                alignas(16) float v[4];
                _mm_store_ps(v, acc4[r]);
                for (int t = 0; t < 4; ++t) a.y[(t0 + t) * a.ldy + r0 + r] = v[t];
            }
        }
    }

    // Prefill: a panel of rows is unpacked once (bytes, scale patterns, mins) and then reused by
    // every group of 4 tokens, instead of unpacking each weight block again for every group.
    static constexpr int kPanelRows = 16;
    static constexpr int kPackedMR = kAvx512 ? 4 : 2;

    struct alignas(64) PackedK {
        uint8_t u[256];      // chunk C: bytes 32C .. 32C + 31
        int16_t pat[8][16];  // the i16 scale pattern of each chunk
        int16_t mins16[16];
        float d, dmin;
        uint8_t pad[24];
    };
    static_assert(sizeof(PackedK) == 576);

    static uint64_t workBytes(int64_t cols) { return kPanelRows * static_cast<uint64_t>(cols / 256) * sizeof(PackedK); }

    static void pack(const uint8_t* blk, PackedK& pk) {
        KPrep p;
        W::prep(p, blk);
        forChunks([&](auto cc) {
            constexpr int C = decltype(cc)::value;
            _mm256_store_si256(reinterpret_cast<__m256i*>(pk.u + 32 * C), W::template chunk<C>(blk));
            _mm256_store_si256(reinterpret_cast<__m256i*>(pk.pat[C]), pattern<C>(p));
        });
        _mm256_store_si256(reinterpret_cast<__m256i*>(pk.mins16), p.mins16);
        pk.d = p.d, pk.dmin = p.dmin;
    }

    template <int MR>
    static void runPacked(const TileArgs& a, const PackedK* panel, int r0, int t0) {
        const int64_t nb = a.cols / 256;
        const int8_t* xq[4];
        const float* xd[4];
        const int16_t* xs[4];
        for (int t = 0; t < 4; ++t) {
            const ActQ8KView v(a.act + (t0 + t) * a.actStride, a.cols);
            xq[t] = v.qs, xd[t] = v.d, xs[t] = v.bsums;
        }
        __m128 acc4[MR];
        for (int r = 0; r < MR; ++r) acc4[r] = _mm_setzero_ps();
        for (int64_t b = 0; b < nb; ++b) {
            const PackedK* pk[MR];
            for (int r = 0; r < MR; ++r) pk[r] = panel + r * nb + b;
            __m256i is[MR][4];
            for (int r = 0; r < MR; ++r)
                for (int t = 0; t < 4; ++t) is[r][t] = _mm256_setzero_si256();
            forChunks([&](auto cc) {
                constexpr int C = decltype(cc)::value;
                __m256i xv[4];
                for (int t = 0; t < 4; ++t) xv[t] = load256(xq[t] + 256 * b + 32 * C);
                for (int r = 0; r < MR; ++r) {
                    const __m256i u = _mm256_load_si256(reinterpret_cast<const __m256i*>(pk[r]->u + 32 * C));
                    const __m256i s = _mm256_load_si256(reinterpret_cast<const __m256i*>(pk[r]->pat[C]));
                    for (int t = 0; t < 4; ++t) is[r][t] = dotI16(is[r][t], _mm256_maddubs_epi16(u, xv[t]), s);
                }
            });
            __m256i bs[4];
            for (int t = 0; t < 4; ++t) bs[t] = load256(xs[t] + 16 * b);
            const __m128 dx = _mm_setr_ps(xd[0][b], xd[1][b], xd[2][b], xd[3][b]);
            for (int r = 0; r < MR; ++r) {
                const __m256i mins = _mm256_load_si256(reinterpret_cast<const __m256i*>(pk[r]->mins16));
                __m256i ms[4];
                for (int t = 0; t < 4; ++t) {
                    ms[t] = _mm256_madd_epi16(mins, bs[t]);
                    if constexpr (W::kShift >= 0) is[r][t] = _mm256_sub_epi32(is[r][t], _mm256_slli_epi32(ms[t], W::kShift));
                }
                finishFour(is[r], ms, dx, pk[r]->d, pk[r]->dmin, acc4[r]);
            }
        }
        for (int r = 0; r < MR; ++r) {
            alignas(16) float v[4];
            _mm_store_ps(v, acc4[r]);
            for (int t = 0; t < 4; ++t) a.y[(t0 + t) * a.ldy + r0 + r] = v[t];
        }
    }

    static void tile(const TileArgs& a) {
        const int64_t nb = a.cols / 256;
        if (a.nTok < 8 || !a.work || a.workBytes < workBytes(a.cols) ||
            reinterpret_cast<uintptr_t>(a.work) % 64 != 0) {
            tileDriver<KKernel<W>>(a);
            return;
        }
        auto* panel = reinterpret_cast<PackedK*>(a.work);
        const int groups = a.nTok / 4;
        for (int r0 = 0; r0 < a.nRows; r0 += kPanelRows) {
            const int rows = a.nRows - r0 < kPanelRows ? a.nRows - r0 : kPanelRows;
            for (int r = 0; r < rows; ++r)
                for (int64_t b = 0; b < nb; ++b) pack(a.w + (r0 + r) * a.wStride + b * W::kBytes, panel[r * nb + b]);
            for (int g = 0; g < groups; ++g) {
                int r = 0;
                for (; r + kPackedMR <= rows; r += kPackedMR) runPacked<kPackedMR>(a, panel + r * nb, r0 + r, 4 * g);
                for (; r < rows; ++r) runPacked<1>(a, panel + r * nb, r0 + r, 4 * g);
            }
        }
        for (int t = 4 * groups; t < a.nTok; ++t) {  // leftover tokens, one at a time as in tileDriver
            int r = 0;
            for (; r + kMR1 <= a.nRows; r += kMR1) run<kMR1, 1>(a, r, t);
            for (; r < a.nRows; ++r) run<1, 1>(a, r, t);
        }
    }
};

}  // namespace
}  // namespace hearth::quant::HEARTH_X86_NS
