// Tiles for F32, F16 and BF16 weights: weights widened to f32 in registers, activations already
// rounded to the weight type's precision (F16: half, BF16: bfloat16; F32: read directly), products
// accumulated with FMA. Zmm registers on AVX-512, ymm on AVX2.
namespace hearth::quant::HEARTH_X86_NS {
namespace {

#if HEARTH_X86_AVX512
using VF = __m512;
constexpr int kVW = 16;
inline VF vzero() { return _mm512_setzero_ps(); }
inline VF vload(const float* p) { return _mm512_loadu_ps(p); }
inline VF vfma(VF a, VF b, VF c) { return _mm512_fmadd_ps(a, b, c); }
inline float vsum(VF v) { return _mm512_reduce_add_ps(v); }
inline VF vloadF16(const uint16_t* p) { return _mm512_cvtph_ps(load256(p)); }
inline VF vloadBF16(const uint16_t* p) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(load256(p)), 16)); }
#else
using VF = __m256;
constexpr int kVW = 8;
inline VF vzero() { return _mm256_setzero_ps(); }
inline VF vload(const float* p) { return _mm256_loadu_ps(p); }
inline VF vfma(VF a, VF b, VF c) { return _mm256_fmadd_ps(a, b, c); }
inline float vsum(VF v) { return hsum(v); }
inline VF vloadF16(const uint16_t* p) { return _mm256_cvtph_ps(load128(p)); }
inline VF vloadBF16(const uint16_t* p) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(load128(p)), 16)); }
#endif

struct WF32 {
    using T = float;
    static VF load(const T* p) { return vload(p); }
    static float scalar(const T* p) { return *p; }
};
struct WF16 {
    using T = uint16_t;
    static VF load(const T* p) { return vloadF16(p); }
    static float scalar(const T* p) { return _cvtsh_ss(*p); }
};
struct WBF16 {
    using T = uint16_t;
    static VF load(const T* p) { return vloadBF16(p); }
    static float scalar(const T* p) { return bf16BitsToFloat(*p); }
};

template <class W>
struct FloatKernel {
    static constexpr int kMR4 = kAvx512 ? 4 : 2;
    static constexpr int kMR1 = 4;

    template <int MR, int NR>
    static void run(const TileArgs& a, int r0, int t0) {
        const typename W::T* w[MR];
        const float* x[NR];
        for (int r = 0; r < MR; ++r) w[r] = reinterpret_cast<const typename W::T*>(a.w + (r0 + r) * a.wStride);
        for (int t = 0; t < NR; ++t) x[t] = reinterpret_cast<const float*>(a.act + (t0 + t) * a.actStride);
        VF acc[MR][NR];
        for (int r = 0; r < MR; ++r)
            for (int t = 0; t < NR; ++t) acc[r][t] = vzero();
        int64_t k = 0;
        for (; k + kVW <= a.cols; k += kVW) {
            VF xv[NR];
            for (int t = 0; t < NR; ++t) xv[t] = vload(x[t] + k);
            for (int r = 0; r < MR; ++r) {
                const VF wv = W::load(w[r] + k);
                for (int t = 0; t < NR; ++t) acc[r][t] = vfma(wv, xv[t], acc[r][t]);
            }
        }
        for (int r = 0; r < MR; ++r) {
            for (int t = 0; t < NR; ++t) {
                float tail = 0;
                for (int64_t i = k; i < a.cols; ++i) tail += W::scalar(w[r] + i) * x[t][i];
                a.y[(t0 + t) * a.ldy + r0 + r] = vsum(acc[r][t]) + tail;
            }
        }
    }
};

}  // namespace
}  // namespace hearth::quant::HEARTH_X86_NS
