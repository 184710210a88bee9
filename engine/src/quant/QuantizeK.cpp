// Quantizers for the k-quants (256-element super-blocks of 8 or 16 sub-blocks).
//
// Each sub-block first gets its own searched scale (and min), with the type's element weighting.
// The sub-block scales are then quantized to the type's small integers by the same search, weighted
// by how much a scale error costs in that sub-block. With the integer scales fixed, the super-block
// scale(s) are refitted by least squares over all 256 elements, rounded to half, and the integers
// re-rounded; finally each sub-block tries its neighbouring integer scales. These super-block steps
// use their own weighting (plain squared error: it measured best in perplexity, see QuantSpec
// below) and keep the best state seen, scored with the exact dequantization arithmetic.
#include <cmath>
#include <cstring>

#include "quant/Blocks.h"
#include "quant/KScales.h"
#include "quant/Quantize.h"
#include "quant/ScaleSearch.h"

namespace hearth::quant {
namespace {

struct SymSpec {
    int qlo, qhi;    // element range
    int scLo, scHi;  // integer sub-block scale range
    float window;
    Weighting sub;    // element weights of the sub-block searches
    Weighting super;  // element weights of the super-block steps
};

struct SymState {
    f16_t d = 0;
    int sc[16] = {};
    int8_t q[256] = {};
};

// x ~= d * sc[j] * q over 16 sub-blocks of 16.
float symSubError(const float* x, const float* w, float eff, int qlo, int qhi, int8_t* q) {
    if (eff == 0) {
        std::memset(q, 0, 16);
    } else {
        roundSymmetric(x, 16, eff, qlo, qhi, q);
    }
    float e = 0;
    for (int i = 0; i < 16; ++i) {
        const float r = x[i] - eff * static_cast<float>(q[i]);
        e += w[i] * r * r;
    }
    return e;
}

float symRequantize(const float* x, const float* w, const SymSpec& sp, SymState& st) {
    const float d = f16ToF32(st.d);
    float err = 0;
    for (int j = 0; j < 16; ++j)
        err += symSubError(x + 16 * j, w + 16 * j, d * static_cast<float>(st.sc[j]), sp.qlo, sp.qhi, st.q + 16 * j);
    return err;
}

void kSymmetric(const float* x, const float* imp, const SymSpec& sp, SymState& best) {
    float w[256], ws[256], s[16], sw[16];
    const float rms = rmsOf(x, 256);
    importanceWeights(x, 256, rms, sp.sub, w);
    importanceWeights(x, 256, rms, sp.super, ws);
    scaleByImportance(w, imp, 256);
    scaleByImportance(ws, imp, 256);
    SymState st;
    for (int j = 0; j < 16; ++j) {
        s[j] = fitSymmetric(x + 16 * j, w + 16 * j, 16, sp.qlo, sp.qhi, sp.window, st.q + 16 * j);
        double c = 0;
        for (int i = 0; i < 16; ++i) c += ws[16 * j + i] * static_cast<double>(st.q[16 * j + i]) * st.q[16 * j + i];
        sw[j] = static_cast<float>(c) + 1e-30f;
    }
    int8_t scq[16];
    float d = fitSymmetric(s, sw, 16, sp.scLo, sp.scHi, 0.1f, scq);
    best = SymState{};
    if (d == 0) return;
    for (int j = 0; j < 16; ++j) st.sc[j] = scq[j];
    float bestErr = INFINITY;
    for (int round = 0; round < 3; ++round) {
        st.d = f32ToF16(d);
        const float err = symRequantize(x, ws, sp, st);
        if (err < bestErr) bestErr = err, best = st;
        double sxa = 0, saa = 0;  // refit d with integer scales and q fixed
        for (int i = 0; i < 256; ++i) {
            const double a = static_cast<double>(st.sc[i / 16]) * st.q[i];
            sxa += ws[i] * x[i] * a, saa += ws[i] * a * a;
        }
        if (saa <= 0) break;
        d = static_cast<float>(sxa / saa);
    }
    // Neighbouring integer scales per sub-block.
    const float bd = f16ToF32(best.d);
    for (int j = 0; j < 16; ++j) {
        int8_t q[16];
        float cur = symSubError(x + 16 * j, ws + 16 * j, bd * static_cast<float>(best.sc[j]), sp.qlo, sp.qhi, q);
        for (int delta = -1; delta <= 1; delta += 2) {
            const int c = best.sc[j] + delta;
            if (c < sp.scLo || c > sp.scHi) continue;
            const float e = symSubError(x + 16 * j, ws + 16 * j, bd * static_cast<float>(c), sp.qlo, sp.qhi, q);
            if (e < cur) cur = e, best.sc[j] = c, std::memcpy(best.q + 16 * j, q, 16);
        }
    }
}

struct AffSpec {
    int nsub, len;  // sub-blocks x elements (nsub * len == 256)
    int qmax;       // elements in [0, qmax]
    int scMax;      // integer scales and mins in [0, scMax]
    Weighting sub, super;
};

struct AffState {
    f16_t d = 0, dmin = 0;
    int sc[16] = {}, mn[16] = {};
    uint8_t q[256] = {};
};

float affSubError(const float* x, const float* w, int len, float eff, float off, int qmax, uint8_t* q) {
    float e = 0;
    const float inv = eff != 0 ? 1.0f / eff : 0.0f;
    for (int i = 0; i < len; ++i) {
        q[i] = static_cast<uint8_t>(eff != 0 ? clampInt(nearestInt((x[i] + off) * inv), 0, qmax) : 0);
        const float r = x[i] - (eff * static_cast<float>(q[i]) - off);
        e += w[i] * r * r;
    }
    return e;
}

float affRequantize(const float* x, const float* w, const AffSpec& sp, AffState& st) {
    const float d = f16ToF32(st.d), dm = f16ToF32(st.dmin);
    float err = 0;
    for (int j = 0; j < sp.nsub; ++j)
        err += affSubError(x + sp.len * j, w + sp.len * j, sp.len, d * static_cast<float>(st.sc[j]),
                           dm * static_cast<float>(st.mn[j]), sp.qmax, st.q + sp.len * j);
    return err;
}

void kAffine(const float* x, const float* imp, const AffSpec& sp, AffState& best) {
    float w[256], ws[256], s[16], m[16], sw[16], mw[16];
    const float rms = rmsOf(x, 256);
    importanceWeights(x, 256, rms, sp.sub, w);
    importanceWeights(x, 256, rms, sp.super, ws);
    scaleByImportance(w, imp, 256);
    scaleByImportance(ws, imp, 256);
    AffState st;
    for (int j = 0; j < sp.nsub; ++j) {
        const float* xj = x + sp.len * j;
        const float* wj = w + sp.len * j;
        const AffineFit f = fitAffine(xj, wj, sp.len, sp.qmax, true, st.q + sp.len * j);
        s[j] = f.scale, m[j] = -f.offset;
        double cq = 0, c1 = 0;
        const float* wsj = ws + sp.len * j;
        for (int i = 0; i < sp.len; ++i) cq += wsj[i] * static_cast<double>(st.q[sp.len * j + i]) * st.q[sp.len * j + i], c1 += wsj[i];
        sw[j] = static_cast<float>(cq) + 1e-30f;
        mw[j] = static_cast<float>(c1) + 1e-30f;
    }
    int8_t scq[16], mnq[16];
    float d = fitSymmetric(s, sw, sp.nsub, -sp.scMax, sp.scMax, 0.1f, scq);
    float dm = fitSymmetric(m, mw, sp.nsub, -sp.scMax, sp.scMax, 0.1f, mnq);
    for (int j = 0; j < sp.nsub; ++j) st.sc[j] = clampInt(scq[j], 0, sp.scMax), st.mn[j] = clampInt(mnq[j], 0, sp.scMax);
    if (dm < 0) dm = 0;
    best = AffState{};
    if (d <= 0) {  // a flat super-block: everything is the min
        best.dmin = f32ToF16(dm);
        for (int j = 0; j < sp.nsub; ++j) best.mn[j] = st.mn[j];
        return;
    }
    float bestErr = INFINITY;
    for (int round = 0; round < 3; ++round) {
        st.d = f32ToF16(d), st.dmin = f32ToF16(dm);
        const float err = affRequantize(x, ws, sp, st);
        if (err < bestErr) bestErr = err, best = st;
        // Refit (d, dmin) jointly: x ~= d * A - dmin * B with A = sc * q, B = mn.
        double saa = 0, sbb = 0, sab = 0, sxa = 0, sxb = 0;
        for (int i = 0; i < 256; ++i) {
            const int j = i / sp.len;
            const double a = static_cast<double>(st.sc[j]) * st.q[i], b = st.mn[j];
            saa += ws[i] * a * a, sbb += ws[i] * b * b, sab += ws[i] * a * b;
            sxa += ws[i] * x[i] * a, sxb += ws[i] * x[i] * b;
        }
        const double det = sab * sab - saa * sbb;
        double nd = 0, ndm = 0;
        if (std::fabs(det) > 1e-12 * saa * sbb && sbb > 0) {
            nd = (sab * sxb - sxa * sbb) / det;
            ndm = (saa * sxb - sab * sxa) / det;
        }
        if (!(ndm >= 0) || sbb <= 0) ndm = 0, nd = saa > 0 ? sxa / saa : 0;
        if (!(nd > 0)) break;
        d = static_cast<float>(nd), dm = static_cast<float>(ndm);
    }
    // Neighbouring integer scales and mins per sub-block.
    const float bd = f16ToF32(best.d), bdm = f16ToF32(best.dmin);
    for (int j = 0; j < sp.nsub; ++j) {
        const float* xj = x + sp.len * j;
        const float* wj = ws + sp.len * j;
        uint8_t q[32];
        float cur = affSubError(xj, wj, sp.len, bd * static_cast<float>(best.sc[j]), bdm * static_cast<float>(best.mn[j]),
                                sp.qmax, q);
        const int sc0 = best.sc[j], mn0 = best.mn[j];
        for (int ds = -1; ds <= 1; ++ds) {
            for (int dn = -1; dn <= 1; ++dn) {
                const int c = sc0 + ds, mm = mn0 + dn;
                if ((ds == 0 && dn == 0) || c < 0 || c > sp.scMax || mm < 0 || mm > sp.scMax) continue;
                const float e = affSubError(xj, wj, sp.len, bd * static_cast<float>(c), bdm * static_cast<float>(mm), sp.qmax, q);
                if (e < cur) cur = e, best.sc[j] = c, best.mn[j] = mm, std::memcpy(best.q + sp.len * j, q, static_cast<size_t>(sp.len));
            }
        }
    }
}

// The weightings were chosen on coder-f16.gguf's perplexity (40 chunks of 512 of
// python-sample.txt; F16 7.4985): Q6_K with x^2 / uniform / (rms + |x|) sub-block weights gave
// 7.527 / 7.510 / 7.513 (llama.cpp 7.522); Q4_K_M with (rms + |x|) sub-blocks and uniform
// super-block steps 7.554, with (rms + |x|) throughout 7.558-7.566, uniform throughout 7.564
// (llama.cpp 7.555). Q3_K and Q2_K follow their families.
const SymSpec kQ6 = {-32, 31, -128, 127, 0.2f, Weighting::Uniform, Weighting::Uniform};
const SymSpec kQ3 = {-4, 3, -32, 31, 0.4f, Weighting::Uniform, Weighting::Uniform};
const AffSpec kQ4 = {8, 32, 15, 63, Weighting::RmsPlusAbs, Weighting::Uniform};
const AffSpec kQ5 = {8, 32, 31, 63, Weighting::RmsPlusAbs, Weighting::Uniform};
const AffSpec kQ2 = {16, 16, 3, 15, Weighting::Abs, Weighting::Uniform};

}  // namespace

void quantizeQ6_K(const float* x, void* dst, int64_t n, const float* imp) {
    auto* b = static_cast<BlockQ6_K*>(dst);
    SymState st;
    for (int64_t i = 0; i < n / 256; ++i, x += 256, imp = imp ? imp + 256 : nullptr) {
        kSymmetric(x, imp, kQ6, st);
        std::memset(&b[i], 0, sizeof(BlockQ6_K));
        b[i].d = st.d;
        for (int j = 0; j < 16; ++j) b[i].scales[j] = static_cast<int8_t>(st.sc[j]);
        for (int e = 0; e < 256; ++e) {
            const int u = st.q[e] + 32, nh = e / 128, k = (e / 32) % 4, l = e % 32;
            b[i].ql[64 * nh + 32 * (k & 1) + l] |= static_cast<uint8_t>((u & 15) << (k >= 2 ? 4 : 0));
            b[i].qh[32 * nh + l] |= static_cast<uint8_t>((u >> 4) << (2 * k));
        }
    }
}

void quantizeQ3_K(const float* x, void* dst, int64_t n, const float* imp) {
    auto* b = static_cast<BlockQ3_K*>(dst);
    SymState st;
    for (int64_t i = 0; i < n / 256; ++i, x += 256, imp = imp ? imp + 256 : nullptr) {
        kSymmetric(x, imp, kQ3, st);
        std::memset(&b[i], 0, sizeof(BlockQ3_K));
        b[i].d = st.d;
        uint8_t stored[16];
        for (int j = 0; j < 16; ++j) stored[j] = static_cast<uint8_t>(st.sc[j] + 32);
        packScalesQ3K(stored, b[i].scales);
        for (int e = 0; e < 256; ++e) {
            const int u = st.q[e] + 4, nh = e / 128, k = (e / 32) % 4, l = e % 32;
            b[i].qs[32 * nh + l] |= static_cast<uint8_t>((u & 3) << (2 * k));
            b[i].hmask[l] |= static_cast<uint8_t>((u >> 2) << (4 * nh + k));
        }
    }
}

namespace {

// Q4_K and Q5_K share everything but the fifth bit.
template <class Block>
void quantizeQ45_K(const float* x, Block* b, int64_t n, const float* imp, const AffSpec& spec) {
    AffState st;
    for (int64_t i = 0; i < n / 256; ++i, x += 256, imp = imp ? imp + 256 : nullptr) {
        kAffine(x, imp, spec, st);
        uint8_t sc[8], mn[8];
        for (int j = 0; j < 8; ++j) sc[j] = static_cast<uint8_t>(st.sc[j]), mn[j] = static_cast<uint8_t>(st.mn[j]);
        b[i].d = st.d, b[i].dmin = st.dmin;
        packScaleMinK4(sc, mn, b[i].scales);
        if constexpr (requires { b[i].qh; }) std::memset(b[i].qh, 0, 32);
        for (int c = 0; c < 4; ++c) {
            for (int l = 0; l < 32; ++l) {
                const int lo = st.q[64 * c + l], hi = st.q[64 * c + 32 + l];
                b[i].qs[32 * c + l] = static_cast<uint8_t>((lo & 15) | ((hi & 15) << 4));
                if constexpr (requires { b[i].qh; })
                    b[i].qh[l] |= static_cast<uint8_t>(((lo >> 4) << (2 * c)) | ((hi >> 4) << (2 * c + 1)));
            }
        }
    }
}

}  // namespace

void quantizeQ4_K(const float* x, void* dst, int64_t n, const float* imp) {
    quantizeQ45_K(x, static_cast<BlockQ4_K*>(dst), n, imp, kQ4);
}
void quantizeQ5_K(const float* x, void* dst, int64_t n, const float* imp) {
    quantizeQ45_K(x, static_cast<BlockQ5_K*>(dst), n, imp, kQ5);
}

void quantizeQ2_K(const float* x, void* dst, int64_t n, const float* imp) {
    auto* b = static_cast<BlockQ2_K*>(dst);
    AffState st;
    for (int64_t i = 0; i < n / 256; ++i, x += 256, imp = imp ? imp + 256 : nullptr) {
        kAffine(x, imp, kQ2, st);
        std::memset(&b[i], 0, sizeof(BlockQ2_K));
        b[i].d = st.d, b[i].dmin = st.dmin;
        for (int j = 0; j < 16; ++j) b[i].scales[j] = static_cast<uint8_t>(st.sc[j] | (st.mn[j] << 4));
        for (int e = 0; e < 256; ++e) {
            const int nh = e / 128, k = (e / 32) % 4, l = e % 32;
            b[i].qs[32 * nh + l] |= static_cast<uint8_t>(st.q[e] << (2 * k));
        }
    }
}

}  // namespace hearth::quant
