#pragma once
// Shared pieces of the matrix-vector kernels: which rows a warp owns, the epilogue (with the fused
// RoPE / KV store of the Q/K/V launches), warp sums, how many tokens a CTA takes.
//
// A CTA has 4 warps; each warp owns two row slots. Modes 0/1 (store / accumulate): the slots are
// two consecutive rows of one segment (or one row, rowsPerWarp 1, for launches with few rows) (segments are up to three matrices of one type sharing the
// input, e.g. Q, K and V, each starting at its own ctaBegin). Mode 2 (SiLU pair): slot 0 is row r
// of the gate matrix (seg 0), slot 1 row r of the up matrix (seg 1), and silu(gate) * up goes to
// seg 0's output.

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "cuda/KernelParams.h"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {

constexpr int kGemvWarps = 4;

struct GemvRows {
    const uint8_t* w[2];
    int row[2];
    bool ok[2];
    int seg;
};

// Row slots of warp q of segment s (q counted from the segment's first row pair).
__device__ __forceinline__ GemvRows gemvPairRows(const GemvParams& p, int s, int q) {
    GemvRows r;
    r.seg = s;
    const GemvSeg& g = p.seg[s];
    if (p.mode == 2) {
        r.row[0] = r.row[1] = q;
        r.w[0] = p.seg[0].w;
        r.w[1] = p.seg[1].w;
        r.ok[0] = r.ok[1] = q < p.seg[0].rows;
    } else {
        const int row = q * p.rowsPerWarp;
        r.row[0] = row;
        r.row[1] = row + 1;
        r.w[0] = r.w[1] = g.w;
        r.ok[0] = row < g.rows;
        r.ok[1] = p.rowsPerWarp == 2 && row + 1 < g.rows;
    }
    return r;
}

// Row slots of pair v of the one-pair-per-warp layout (v = CTA * kGemvWarps + warp; each segment
// starts at its ctaBegin, so a segment's last CTA may have warps with no rows).
__device__ __forceinline__ GemvRows gemvLayoutRows(const GemvParams& p, int v) {
    const int cta = v / kGemvWarps;
    int s = 0;
    while (s + 1 < p.nSeg && cta >= p.seg[s + 1].ctaBegin) ++s;
    return gemvPairRows(p, s, (cta - p.seg[s].ctaBegin) * kGemvWarps + v % kGemvWarps);
}

// Pairs of that layout in all: the last segment's CTAs end it.
__device__ __forceinline__ int gemvLayoutPairs(const GemvParams& p) {
    const GemvSeg& g = p.seg[p.nSeg - 1];
    const int rowsPerCta = kGemvWarps * p.rowsPerWarp;
    return (g.ctaBegin + (g.rows + rowsPerCta - 1) / rowsPerCta) * kGemvWarps;
}

// The row pairs one warp of a persistent launch takes (gridDim.x CTAs, possibly fewer than the
// layout has): pairs first, first + stride, ... of the one-pair-per-warp layout, `count` of them.
struct GemvPairWalk {
    bool flat;  // one segment: pairs numbered within it (gemvPairRows), else the layout's
    int first, stride, count;
    __device__ explicit GemvPairWalk(const GemvParams& p) {
        flat = p.nSeg == 1;
        first = static_cast<int>(blockIdx.x) * kGemvWarps + static_cast<int>(threadIdx.x >> 5);
        stride = static_cast<int>(gridDim.x) * kGemvWarps;
        const int total = !flat ? gemvLayoutPairs(p)
                                : p.mode == 2 ? p.seg[0].rows : (p.seg[0].rows + p.rowsPerWarp - 1) / p.rowsPerWarp;
        count = first < total ? (total - 1 - first) / stride + 1 : 0;
    }
    __device__ GemvRows rows(const GemvParams& p, int k) const {
        const int v = first + k * stride;
        return flat ? gemvPairRows(p, 0, v) : gemvLayoutRows(p, v);
    }
};

// This warp's row slots when every warp of the launch owns one pair (a CTA per four pairs): pair
// blockIdx.x * kGemvWarps + warp of that layout, written out rather than through gemvLayoutRows
// (whose division by kGemvWarps changed the general kernel's registers, up to 128 from 96 for some
// instantiations, ptxas).
__device__ __forceinline__ GemvRows gemvRows(const GemvParams& p) {
    int s = 0;
    while (s + 1 < p.nSeg && static_cast<int>(blockIdx.x) >= p.seg[s + 1].ctaBegin) ++s;
    return gemvPairRows(p, s, (static_cast<int>(blockIdx.x) - p.seg[s].ctaBegin) * kGemvWarps + (threadIdx.x >> 5));
}

template <int MaxT>
__device__ __forceinline__ void gemvZero(float (&acc)[2][MaxT]) {
#pragma unroll
    for (int s = 0; s < 2; ++s)
#pragma unroll
        for (int t = 0; t < MaxT; ++t) acc[s][t] = 0.f;
}

__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
}

// SiLU as the CPU computes it: g / (1 + exp(-g)) * u.
__device__ __forceinline__ float siluMul(float g, float u) { return __fmul_rn(__fdiv_rn(g, __fadd_rn(1.0f, expf(-g))), u); }

// Token slices of a launch (gridDim.y): 8 tokens each; a slice computes its rows exactly as a
// launch of those tokens alone would.
__host__ __device__ inline int gemvTokenSlices(int T) { return T <= 1 ? 1 : (T + kGemvMaxT - 1) / kGemvMaxT; }

// Tokens per CTA (1, 2, 4 or 8) of a matrix-vector launch over `grid` CTAs of row pairs. A launch with few
// CTAs whose weights stay in L2 takes narrower token slices (gridDim.y), so more CTAs share the
// tokens: such launches are bound by the latency of each warp's per-token work, not by memory (H200,
// the 23 M-parameter coder model: 8 tokens in one slice took 9-12 us a matrix against 4-5 us for
// one token), and a slice's re-read of the weights comes from L2. Each token is computed the same
// whatever the slice width (the invariant the kernel keeps), so this changes no result.
inline int gemvTokensPerCta(const GemvParams& p, int grid) {
    const int widest = p.T <= 2 ? p.T : p.T <= 4 ? 4 : kGemvMaxT;
    static const bool off = [] {
        const char* v = std::getenv("HEARTH_CUDA_GEMV_SLICES");  // =0 (measuring): one slice per 8 tokens
        return v && std::atoi(v) == 0;
    }();
    static int sms[64] = {}, l2[64] = {};
    int dev = 0;
    if (off || p.T == 1 || cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return widest;
    if (!sms[dev] && (cudaDeviceGetAttribute(&sms[dev], cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
                      cudaDeviceGetAttribute(&l2[dev], cudaDevAttrL2CacheSize, dev) != cudaSuccess))
        return widest;
    int64_t rows = p.mode == 2 ? p.seg[0].rows : 0;  // mode 2: the gate and up matrices
    for (int i = 0; i < p.nSeg; ++i) rows += p.seg[i].rows;
    const int wantCtas = 4 * sms[dev];
    if (grid >= wantCtas || rows * p.rowBytes > l2[dev] / 8) return widest;
    const int slices = std::min(p.T, (wantCtas + grid - 1) / grid);
    const int per = (p.T + slices - 1) / slices;
    return std::min(widest, per <= 1 ? 1 : per <= 2 ? 2 : per <= 4 ? 4 : kGemvMaxT);
}

// The instantiation of a matrix-vector kernel for `per` tokens per CTA (gemvTokensPerCta).
using GemvKernel = void (*)(GemvParams);

inline GemvKernel gemvKernelFor(int per, GemvKernel t1, GemvKernel t2, GemvKernel t4, GemvKernel t8) {
    return per == 1 ? t1 : per == 2 ? t2 : per == 4 ? t4 : t8;
}

// The fused RoPE / KV store of a Q, K or V row pair (GemvParams::rope) for one token: a0, a1 are
// rows r.row[0] (even) and r.row[1] of the segment; rc / rs the rotation's entries, slot the KV slot.
__device__ __forceinline__ void gemvRopeStore(const GemvParams& p, const GemvRows& r, float a0, float a1, int64_t tok,
                                              int role, float rc, float rs, int slot) {
    const RopeStoreParams& rp = p.rope;
    if (const float* b = role == 0 ? rp.bq : role == 1 ? rp.bk : rp.bv) {
        a0 = __fadd_rn(a0, b[r.row[0]]);
        a1 = __fadd_rn(a1, b[r.row[1]]);
    }
    const int d = r.row[0] % rp.D;
    if (role != 2 && d / 2 < rp.ropePairs) {
        const float x0 = a0, x1 = a1;
        a0 = __fsub_rn(__fmul_rn(x0, rc), __fmul_rn(x1, rs));
        a1 = __fadd_rn(__fmul_rn(x0, rs), __fmul_rn(x1, rc));
    }
    if (role == 0) {
        float* y = p.seg[r.seg].y + tok * p.seg[r.seg].ldy + r.row[0];
        y[0] = a0;
        y[1] = a1;
        return;
    }
    if (slot < 0) return;
    uint8_t* blk = rp.pool + static_cast<uint64_t>(slot >> 4) * rp.blockBytes;
    const int rowIdx = (r.row[0] / rp.D) * 16 + (slot & 15);
    uint8_t* row = blk + (role == 1 ? rp.kOff : rp.vOff) + static_cast<uint64_t>(rowIdx) * rp.rowBytes;
    *reinterpret_cast<__half2*>(row + 2 * d) = __floats2half2_rn(a0, a1);
}

// acc[s][t] summed over the warp; lane t writes token tBase + t (T tokens in this slice).
template <int MaxT>
__device__ __forceinline__ void gemvEpilogue(const GemvParams& p, const GemvRows& r, float (&acc)[2][MaxT], int tBase,
                                             int T) {
    const int lane = threadIdx.x & 31;
    // Fused RoPE: this lane's token's rotation entries and slot (metadata and a constant table),
    // loaded before the sums so their latency overlaps the shuffles.
    const int role = p.mode == 0 ? p.ropeRole[r.seg] : -1;
    float rc = 1.f, rs = 0.f;
    int slot = -1;
    if (role >= 0 && lane < T && r.ok[0]) {
        const RopeStoreParams& rp = p.rope;
        const int i = (r.row[0] % rp.D) / 2;
        if (role != 2 && i < rp.ropePairs) {
            const int64_t at = static_cast<int64_t>(rp.tokenPos[tBase + lane]) * rp.ropePairs + i;
            rc = rp.ropeCos[at];
            rs = rp.ropeSin[at];
        }
        if (role != 0) slot = rp.tokenSlot[tBase + lane];
    }
#pragma unroll
    for (int s = 0; s < 2; ++s)
#pragma unroll
        for (int t = 0; t < MaxT; ++t) acc[s][t] = warpSum(acc[s][t]);
#pragma unroll
    for (int t = 0; t < MaxT; ++t) {
        if (t >= T || lane != t) continue;
        if (p.mode == 2) {
            if (r.ok[0]) {
                const GemvSeg& g = p.seg[0];
                g.y[static_cast<int64_t>(tBase + t) * g.ldy + r.row[0]] = siluMul(acc[0][t], acc[1][t]);
            }
            continue;
        }
        if (role >= 0) {
            if (r.ok[0]) gemvRopeStore(p, r, acc[0][t], acc[1][t], tBase + t, role, rc, rs, slot);
            continue;
        }
        const GemvSeg& g = p.seg[r.seg];
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            if (!r.ok[s]) continue;
            float* y = g.y + static_cast<int64_t>(tBase + t) * g.ldy + r.row[s];
            *y = p.mode == 1 ? *y + acc[s][t] : acc[s][t];
        }
    }
}

}  // namespace hearth::cuda
