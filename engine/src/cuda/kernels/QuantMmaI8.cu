// Integer tensor-core product of Q4_K and Q5_K weights with Q8_K inputs for 9..64 tokens (batched decode):
// the arithmetic of the CPU's Q4_K / Q5_K dot products, on mma.sync m16n8k32 s8 (sm_80+).
//
// Why: the f16 form (QuantMma.cu) copies every token's inputs as f16 into every CTA (at 64 tokens
// 1.75 times as many bytes as the weights) and dequantizes each weight to f16 first. Here the inputs
// are the int8 values of the same Q8_K rounding (half the bytes) and the weights' 4-bit values go
// into the tensor cores as they are (a mask per four), so no weight is dequantized at all. Measured
// on an H100: ~3% more aggregate decode for Q5_K_M at 8-64 sequences, none for Q4_K_M (its f16
// form's dequantization is cheaper, and here every 8-token tile's unit sums are scaled), so only
// Q5_K takes this form by default (CudaStage.cpp, docs/benchmarks.md).
//
// Numerics. A Q4_K weight is d·sc_u·q − dmin·m_u (q 0..15, sc_u and m_u 6-bit per 32-element unit u,
// d and dmin f16 per 256-element block); an input is dx·x (x int8, dx per 256 elements of a token).
// Per block and (row, token):
//   sum = dx · (d · Σ_u sc_u · dot_u  −  dmin · Σ_u m_u · xsum_u)
// dot_u = Σ q·x over the unit is exact (int32, one MMA per unit and 8-token tile); Σ_u sc_u·dot_u is
// exact (integer multiply-adds); the min term Σ_u (dmin·m_u)·(dx·xsum_u) is one f16 MMA (m16n8k8,
// f32 sums) per block and tile, both factors rounded to f16 as the f16 form rounds its weights'
// min term. Blocks are added in f32 in K order, so results do not depend on timing.
//
// Layout (as QuantMma.cu): a CTA of 8 warps owns 128 weight rows (or 64 gate + the same 64 up rows)
// and every token, walking its K range (all of K or one split) in 256-element steps with `stages`
// steps in flight (cp.async). Warp w multiplies slots 16w..16w+15. The MMA's k order inside a unit
// is permuted alike for both operands: lane (g, t) holds unit elements 8t..8t+7, so its A words are
// two 4-byte loads of one row's nibbles and its B words one 8-byte load of a token's inputs.
// A token's row in shared memory: its 256 int8 inputs, 16 bytes of dx (4 copies), 8 f16 dx·xsum_u;
// 288 bytes, so 8 tokens' loads of one unit fall in distinct banks.
#include <cuda_fp16.h>

#include <algorithm>

#include "cuda/KernelParams.h"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"
#include "cuda/kernels/MmaCta.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {
namespace {

constexpr int kBM = kMmaBM, kBK = 256, kThreads = kMmaWarps * 32;
// A type's block (one K step of a row): Q4_K 144 bytes (d, dmin, 12 bytes of scales, 128 of
// nibbles), Q5_K 176 (d, dmin, scales, 32 bytes of fifth bits, the nibbles). In shared memory a
// row's step takes kWLd bytes, 32 or 96 more than a multiple of 128, so the 8-byte loads of four
// rows by a half-warp fall in distinct banks.
template <int TT> struct I8Type {
    static constexpr int kBytes = TT == 12 ? 144 : 176, kQsOff = TT == 12 ? 16 : 48, kWLd = TT == 12 ? 160 : 224;
    static constexpr int kWChunks = kBytes / 16;  // 16-byte copies of a row's step
};
constexpr int kXLd = 288;            // bytes of a token's K step: 256 int8, 4 × dx, 8 × f16 dx·xsum
constexpr int kFacLd = 9;            // words of a slot's factors: sc 0-3, sc 4-7, 4 × f16 pairs −dmin·m, d
constexpr int kStaticSmem = kBM * kFacLd * 4;

__device__ __forceinline__ void mmaS8(int (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                      uint32_t b1) {
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};\n"
        : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(0));
}

__device__ __forceinline__ void mmaF16k8(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t b0) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a0), "r"(a1), "r"(b0));
}

__device__ __forceinline__ uint32_t halves(float lo, float hi) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&h);
}

template <int TT>
constexpr int stageBytes(int nt) { return kBM * I8Type<TT>::kWLd + nt * 8 * kXLd; }
template <int TT, int NT>
constexpr int kMinCtas = 2 * (2 * stageBytes<TT>(NT) + kStaticSmem + 1024) <= 233472 ? 2 : 1;

template <int TT, int NT>
__global__ void __launch_bounds__(kThreads, (kMinCtas<TT, NT>)) quantMmaI8Kernel(const MmaParams p) {
    using L = I8Type<TT>;
    constexpr int kStage = stageBytes<TT>(NT), kWLd = L::kWLd, kWChunks = L::kWChunks;
    extern __shared__ __align__(16) uint8_t smem[];
    __shared__ uint32_t fac[kBM][kFacLd];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, tq = lane & 3;
    const MmaCta cta(p, kBK);
    const MmaSeg& sg = *cta.sg;
    const int nk = cta.nk;

    // Copy tasks, fixed per thread: weights (a row's 9 chunks of a step), then the tokens' inputs
    // (16 chunks of int8), their dx (the first of the unit scales) and their f16 unit sums.
    const uint32_t smemAddr = sharedAddr(smem);
    // Weights: task j = t + 256i copies chunk j % kWChunks of slot j / kWChunks, so a warp's copies
    // are whole rows' contiguous bytes (few L2 requests per instruction; a pair of chunks per row
    // per warp instruction measured slower than the f16 form's copies).
    constexpr int kWTasks = kBM * kWChunks, kWPer = (kWTasks + kThreads - 1) / kThreads;
    const uint8_t* wSrc[kWPer];
    uint32_t wDst[kWPer];
#pragma unroll
    for (int i = 0; i < kWPer; ++i) {
        const int task = tid + i * kThreads, slot = task / kWChunks, c = task - slot * kWChunks;
        const int row = cta.slotRow(slot);
        wSrc[i] = task < kWTasks && row < sg.rows && !p.skipWeightCopies ? cta.slotW(p, slot) + static_cast<uint64_t>(row) * p.rowBytes + 16 * c : nullptr;
        wDst[i] = static_cast<uint32_t>(slot * kWLd + 16 * c);
    }
    // Inputs: thread t copies chunk t & 15 of token rows (t >> 4) + 16i, and threads below 16 NT the
    // side data of token t >> 1 (dx: t even; unit sums: t odd).
    constexpr int kXPer = (NT * 8 + 15) / 16;
    const int xT0 = tid >> 4;
    const int8_t* xSrc = p.xq + static_cast<int64_t>(xT0) * p.cols + 16 * (tid & 15);
    const int64_t xTokStride = static_cast<int64_t>(16) * p.cols;
    const uint32_t xDst = static_cast<uint32_t>(kBM * kWLd + xT0 * kXLd + 16 * (tid & 15));
    const int sideT = tid >> 1;
    const bool sideReal = tid < 16 * NT && sideT < p.copyTokens;
    const int64_t sideUnits = static_cast<int64_t>(sideT) * (p.cols / 32);
    const uint8_t* sideSrc = (tid & 1) ? reinterpret_cast<const uint8_t*>(p.xUnitSum + sideUnits)
                                       : reinterpret_cast<const uint8_t*>(p.xScale + sideUnits);
    const int sideStep = (tid & 1) ? kBK / 32 * 2 : kBK / 32 * 4;
    const uint32_t sideDst = static_cast<uint32_t>(kBM * kWLd + sideT * kXLd + 256 + 16 * (tid & 1));
    auto issueW = [&](int ks, int st) {
        const uint32_t base = smemAddr + static_cast<uint32_t>(st * kStage);
        const uint32_t off = static_cast<uint32_t>(ks) * L::kBytes;
#pragma unroll
        for (int i = 0; i < kWPer; ++i) cpAsync16If(base + wDst[i], wSrc[i] + off, wSrc[i] != nullptr);
    };
    auto issueX = [&](int ks, int st) {
        const uint32_t base = smemAddr + static_cast<uint32_t>(st * kStage);
        const int8_t* src = xSrc + static_cast<int64_t>(ks) * kBK;
#pragma unroll
        for (int i = 0; i < kXPer; ++i)
            cpAsync16If(base + xDst + 16 * i * kXLd, src + i * xTokStride, xT0 + 16 * i < p.copyTokens && xT0 + 16 * i < NT * 8);
        cpAsync16If(base + sideDst, sideSrc + static_cast<int64_t>(ks) * sideStep, sideReal);
    };

    startMmaCopies(cta, p.stages, issueW, issueX);

    const int slotA = warp * 16 + g, slotB = slotA + 8;
    // Factors: lane l computes those of slot 16w + (l & 15), units 4(l >> 4) .. 4(l >> 4) + 3.
    const int facSlot = warp * 16 + (lane & 15), facHi = lane >> 4;
    float acc[NT][4];
    zeroSums(acc);

    MmaStageRing ring(p.stages);
    for (int i = 0; i < nk; ++i) {
        const uint8_t* raw = smem + ring.next(cta, i, p.stages, issueW, issueX) * kStage;
        const uint8_t* xs = raw + kBM * kWLd;
        if (p.measureSkipMath) continue;
        {
            const uint8_t* b = raw + facSlot * kWLd;
            uint32_t scw = 0, mw[2];
            float mv[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                int sc, m;
                kScaleMin(b + 4, 4 * facHi + j, sc, m);
                scw |= static_cast<uint32_t>(sc) << (8 * j);
                mv[j] = static_cast<float>(m);
            }
            const float dmin = h2f(ld16(b + 2));
            mw[0] = halves(-(dmin * mv[0]), -(dmin * mv[1]));
            mw[1] = halves(-(dmin * mv[2]), -(dmin * mv[3]));
            fac[facSlot][facHi] = scw;
            fac[facSlot][2 + 2 * facHi] = mw[0];
            fac[facSlot][3 + 2 * facHi] = mw[1];
            if (facHi == 0) fac[facSlot][6] = __float_as_uint(h2f(ld16(b)));
        }
        __syncwarp();
        int isum[NT][4];
#pragma unroll
        for (int n = 0; n < NT; ++n)
#pragma unroll
            for (int k = 0; k < 4; ++k) isum[n][k] = 0;
        const uint8_t* qA = raw + slotA * kWLd + L::kQsOff + 8 * tq;
        const uint8_t* qB = raw + slotB * kWLd + L::kQsOff + 8 * tq;
        // Q5_K: the fifth bits of this lane's 8 elements, bit u of each byte for unit u.
        uint2 hA = make_uint2(0, 0), hB = make_uint2(0, 0);
        if constexpr (TT == 13) {
            hA = *reinterpret_cast<const uint2*>(raw + slotA * kWLd + 16 + 8 * tq);
            hB = *reinterpret_cast<const uint2*>(raw + slotB * kWLd + 16 + 8 * tq);
        }
        const uint8_t* xg = xs + g * kXLd + 8 * tq;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            const uint2 wA = *reinterpret_cast<const uint2*>(qA + 32 * c);
            const uint2 wB = *reinterpret_cast<const uint2*>(qB + 32 * c);
            const uint32_t scA = fac[slotA][c >> 1], scB = fac[slotB][c >> 1];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int u = 2 * c + h, sh = 8 * (u & 3);
                const int sa = static_cast<int>((scA >> sh) & 0xFFu), sb = static_cast<int>((scB >> sh) & 0xFFu);
                uint32_t a0 = (wA.x >> (4 * h)) & 0x0F0F0F0Fu, a2 = (wA.y >> (4 * h)) & 0x0F0F0F0Fu;
                uint32_t a1 = (wB.x >> (4 * h)) & 0x0F0F0F0Fu, a3 = (wB.y >> (4 * h)) & 0x0F0F0F0Fu;
                if constexpr (TT == 13) {
                    auto fifth = [&](uint32_t v) { return u >= 4 ? (v >> (u - 4)) & 0x10101010u : (v << (4 - u)) & 0x10101010u; };
                    a0 |= fifth(hA.x);
                    a2 |= fifth(hA.y);
                    a1 |= fifth(hB.x);
                    a3 |= fifth(hB.y);
                }
#pragma unroll
                for (int nt = 0; nt < NT; ++nt) {
                    const uint2 xv = *reinterpret_cast<const uint2*>(xg + nt * 8 * kXLd + 32 * u);
                    int d[4];
                    mmaS8(d, a0, a1, a2, a3, xv.x, xv.y);
                    isum[nt][0] += sa * d[0];
                    isum[nt][1] += sa * d[1];
                    isum[nt][2] += sb * d[2];
                    isum[nt][3] += sb * d[3];
                }
            }
        }
        // The block's scale and min terms into the f32 sums.
        const float dA = __uint_as_float(fac[slotA][6]), dB = __uint_as_float(fac[slotB][6]);
        const uint32_t mA = fac[slotA][2 + tq], mB = fac[slotB][2 + tq];
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) {
            const uint8_t* t0 = xs + (nt * 8 + 2 * tq) * kXLd;
            const float dx0 = *reinterpret_cast<const float*>(t0 + 256), dx1 = *reinterpret_cast<const float*>(t0 + kXLd + 256);
            acc[nt][0] = fmaf(dA * dx0, static_cast<float>(isum[nt][0]), acc[nt][0]);
            acc[nt][1] = fmaf(dA * dx1, static_cast<float>(isum[nt][1]), acc[nt][1]);
            acc[nt][2] = fmaf(dB * dx0, static_cast<float>(isum[nt][2]), acc[nt][2]);
            acc[nt][3] = fmaf(dB * dx1, static_cast<float>(isum[nt][3]), acc[nt][3]);
            const uint32_t xsum = *reinterpret_cast<const uint32_t*>(xs + (nt * 8 + g) * kXLd + 272 + 4 * tq);
            mmaF16k8(acc[nt], mA, mB, xsum);
        }
        __syncwarp();  // the factors are rewritten next step
    }

    storeMmaSums<NT>(p, cta, acc, warp, g, tq, smem);
}

size_t smemBytes(int type, int T, int stages) {
    return static_cast<size_t>(stages) * (type == 12 ? stageBytes<12>(mmaTilesFor(T)) : stageBytes<13>(mmaTilesFor(T)));
}

template <int TT>
MmaKernels kernelsOf() {
    return {{quantMmaI8Kernel<TT, 1>, quantMmaI8Kernel<TT, 2>, quantMmaI8Kernel<TT, 4>, quantMmaI8Kernel<TT, 8>}};
}

}  // namespace

bool quantMmaI8Supports(int type) { return type == 12 || type == 13; }

cudaError_t prepareQuantMmaI8(int sharedOptin) {
    const int bytes = sharedOptin - kStaticSmem;
    for (cudaError_t e : {prepareMmaKernels(kernelsOf<12>(), bytes), prepareMmaKernels(kernelsOf<13>(), bytes)})
        if (e != cudaSuccess) return e;
    return cudaSuccess;
}

MmaPlan quantMmaI8Plan(int type, int T, int sharedOptin, int sharedPerSm) {
    if (!quantMmaI8Supports(type) || T < 1) return MmaPlan{};
    return planMmaLaunch(type, T, sharedOptin, sharedPerSm, kStaticSmem, smemBytes);
}

cudaError_t launchQuantMmaI8(const MmaParams& p, int splits, cudaStream_t s) {
    if (!quantMmaI8Supports(p.type) || p.T < 1 || p.T > kMmaMaxT || p.cols % kBK != 0 || p.nSeg < 1 || p.nSeg > 3 || p.stages < 2 ||
        p.stages > 4 || (p.mode == 2 && p.nSeg != 1) || !p.xq || !p.xScale || !p.xUnitSum)
        return cudaErrorInvalidValue;
    const MmaSeg& last = p.seg[p.nSeg - 1];
    const int ctas = last.ctaBegin + quantMmaCtas(last.rows, p.mode);
    const size_t smem = smemBytes(p.type, p.T, p.stages);
    return launchMmaKernels(p.type == 12 ? kernelsOf<12>() : kernelsOf<13>(), p, ctas, splits, smem, s);
}

}  // namespace hearth::cuda
