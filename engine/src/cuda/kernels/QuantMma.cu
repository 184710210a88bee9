// Fused dequantize + tensor-core matrix product for quantized weights and 9..64 tokens (batched
// decode, speculative verification), reading the weights once per step in their GGUF form.
//
// Numerics: the cuBLAS path's up to rounding order. Inputs are the f16 values of LinearOps' FQ8
// formats; each weight is dequantized to f16 as fma(q, f16(d·s), f16(-dmin·m)) (the legacy types:
// q·d + m); products are summed in f32 (mma.sync m16n8k16, sm_80+).
//
// A CTA (8 warps) owns 128 weight rows ("slots": consecutive rows of one matrix, or in pair mode 64
// gate rows and the same 64 up rows) and every token, and walks its K range (all of K, or one split
// of it) in steps of 256 elements. Each step's raw weight bytes and the tokens' inputs are copied
// to shared memory with cp.async, `stages` steps in flight. Warp w multiplies slots 16w..16w+15.
// No f16 weight tile is ever written: each lane decodes, straight from the raw bytes, only the two
// words (8 values) of each 32-element unit that its own A fragments hold. That works because the
// MMA's k order inside a unit is permuted, the same way for both operands (which a sum does not
// see): in k16 half h, lane (g, t) holds unit elements 8t+4h .. 8t+4h+3, i.e. word 2t+h of the
// unit, and reads its inputs for those elements with one 16-byte load (token rows of the input tile
// swap 16-byte chunks by token parity, so those loads are free of bank conflicts).
//
// With few rows the K range is split over gridDim.y CTAs; their partial sums are added in split
// order by splitReduceKernel, so results never depend on timing.
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdlib>

#include "cuda/KernelParams.h"
#include "cuda/MeasureSkips.h"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"
#include "cuda/kernels/MmaCta.cuh"
#include "cuda/kernels/MmaWeightTiles.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {
namespace {

constexpr int kBM = kMmaBM, kBK = kMmaBK, kThreads = kMmaWarps * 32;
constexpr int kXRowBytes = kMmaXRowBytes, kUnits = kMmaUnits;
constexpr int kStaticSmem = kBM * (2 * kUnits + 1) * 4;  // the kernel's static shared memory (the factor table)

// mma16816 without `volatile`: the compiler may interleave these with the dequantization.
__device__ __forceinline__ void mmaTile(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two CTAs per multiprocessor where two stages of each fit in a Hopper multiprocessor's 228 KiB
// (quantMmaPlan), else one with the registers that frees.
template <int TT, int NT>
constexpr int kMinCtas = 2 * (2 * (kBM * MmaShape<TT>::kRawLd + NT * 8 * kXRowBytes) + kStaticSmem + 1024) <= 233472 ? 2 : 1;

// NT: 8-token tiles of the launch (tokens T <= 8 NT). Everything a K step does is unrolled at
// compile time: the copies each thread issues, the eight units, the NT tiles.
template <int TT, int NT>
__global__ void __launch_bounds__(kThreads, (kMinCtas<TT, NT>)) quantMmaKernel(const MmaParams p) {
    using S = MmaShape<TT>;
    constexpr int kStage = kBM * S::kRawLd + NT * 8 * kXRowBytes;
    extern __shared__ __align__(16) uint8_t smem[];
    // Per row and unit: packed (scale, add) of its lower, upper half; rows padded (no bank conflicts).
    // Each warp computes and reads only its own 16 rows' factors.
    __shared__ uint32_t fac[kBM][2 * kUnits + 1];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, tq = lane & 3;
    const MmaCta cta(p, kBK);
    auto slotRow = [&](int slot) { return cta.slotRow(slot); };
    const int ks0 = cta.ks0, nk = cta.nk;
    const uint32_t smemAddr = sharedAddr(smem);
    const MmaWeightCopies<TT, kThreads> wCopies(p, cta, tid);
    auto issueW = [&](int ks, int st) { wCopies.issue(smemAddr + static_cast<uint32_t>(st * kStage), ks); };
    // Input copies: this thread's chunk (tid & 31) of token rows (tid >> 5) + 8i. Token rows past T
    // are left as they are: an output column depends on its own input row only.
    const int xT0 = tid >> 5, xC = tid & 31;
    const __half* xSrc = p.x + static_cast<int64_t>(xT0) * p.cols + 8 * xC;
    const int64_t xTileStride = static_cast<int64_t>(8) * p.cols;  // elements between token rows 8 apart
    const uint32_t xDst = static_cast<uint32_t>(kBM * S::kRawLd + xT0 * kXRowBytes + 16 * (xC ^ ((xT0 & 1) << 2)));
    auto issueX = [&](int ks, int st) {
        const uint32_t xs = smemAddr + static_cast<uint32_t>(st * kStage) + xDst;
        const __half* src = xSrc + static_cast<int64_t>(ks) * kBK;
#pragma unroll
        for (int i = 0; i < NT; ++i) cpAsync16If(xs + 8 * i * kXRowBytes, src + i * xTileStride, xT0 + 8 * i < p.copyTokens);
    };

    startMmaCopies(cta, p.stages, issueW, issueX);

    const int slotA = warp * 16 + g, slotB = slotA + 8;
    const int rowA = slotRow(slotA), rowB = slotRow(slotB);
    // The factors this lane computes each step (stageFactors): one of its warp's slots, half the units.
    const int facSlot = warp * 16 + (lane & 15), facRow = slotRow(facSlot), facHi = lane >> 4;
    float acc[NT][4];
    zeroSums(acc);

    MmaStageRing ring(p.stages);
    for (int i = 0; i < nk; ++i) {
        const uint8_t* raw = smem + ring.next(cta, i, p.stages, issueW, issueX) * kStage;
        const int ks = ks0 + i;
        const uint8_t* xs = raw + kBM * S::kRawLd;
        if (p.measureSkipMath) continue;
        stageFactors<TT>(raw + facSlot * S::kRawLd + rawMisalign<TT>(p, facRow, ks), facHi, fac[facSlot]);
        __syncwarp();
        const uint8_t* xEven = xs + g * kXRowBytes + 16 * tq + 64 * (g & 1);
        const uint8_t* xOdd = xs + g * kXRowBytes + 16 * tq - 64 * (g & 1);
        const MmaStepFragments<TT> frags(p, raw, slotA, rowA, rowB, ks, fac[slotA], fac[slotB], tq);
#pragma unroll
        for (int u = 0; u < kUnits; ++u) {
            uint32_t frag[2][4];
            frags.unit(u, frag);
            // The inputs of chunk (4u + tq) ^ 4(g & 1) = 4(u ^ (g & 1)) + tq of token row g: 64 bytes
            // further (u even) or back (u odd) on odd rows, so constant offsets from two bases.
            const uint8_t* xb = (u & 1) ? xOdd : xEven;
            uint4 xv[NT];
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) xv[nt] = *reinterpret_cast<const uint4*>(xb + nt * 8 * kXRowBytes + 64 * u);
            // Each tile's two k16 halves in the same order as before; the tiles interleaved so that
            // consecutive instructions do not wait on each other's sums.
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) mmaTile(acc[nt], frag[0], xv[nt].x, xv[nt].y);
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) mmaTile(acc[nt], frag[1], xv[nt].z, xv[nt].w);
        }
        __syncwarp();  // the factors are rewritten next step
    }

    storeMmaSums<NT>(p, cta, acc, warp, g, tq, smem);
}

__global__ void splitReduceKernel(const MmaParams p, int splits) {
    pdlWait();
    pdlTrigger();
    const int outRows = p.mode == 2 ? p.totalRows / 2 : p.totalRows;
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= static_cast<int64_t>(p.T) * outRows) return;
    const int t = static_cast<int>(idx / outRows), r = static_cast<int>(idx % outRows);
    auto sum = [&](int row) {
        float s = 0.f;
        for (int k = 0; k < splits; ++k) s += p.partial[(static_cast<int64_t>(k) * p.T + t) * p.totalRows + row];
        return s;
    };
    if (p.mode == 2) {
        p.seg[0].y[static_cast<int64_t>(t) * p.seg[0].ldy + r] = siluMul(sum(r), sum(outRows + r));
        return;
    }
    int si = 0;
    while (si + 1 < p.nSeg && r >= p.seg[si + 1].rowOffset) ++si;
    const MmaSeg& sg = p.seg[si];
    float* y = sg.y + static_cast<int64_t>(t) * sg.ldy + (r - sg.rowOffset);
    const float s = sum(r);
    *y = p.mode == 1 ? *y + s : s;
}

int rawLdOf(int type) {
    switch (type) {
        case 2: return MmaShape<2>::kRawLd;
        case 3: return MmaShape<3>::kRawLd;
        case 6: return MmaShape<6>::kRawLd;
        case 7: return MmaShape<7>::kRawLd;
        case 8: return MmaShape<8>::kRawLd;
        case 10: return MmaShape<10>::kRawLd;
        case 11: return MmaShape<11>::kRawLd;
        case 12: return MmaShape<12>::kRawLd;
        case 13: return MmaShape<13>::kRawLd;
        case 14: return MmaShape<14>::kRawLd;
        default: return 0;
    }
}

// 8-token tiles of a launch of T tokens: the instantiated tile counts.
size_t smemBytes(int type, int T, int stages) {
    return static_cast<size_t>(stages) *
           (static_cast<size_t>(kBM) * rawLdOf(type) + static_cast<size_t>(mmaTilesFor(T) * 8) * kXRowBytes);
}

template <int TT>
MmaKernels kernelsOf() {
    return {{quantMmaKernel<TT, 1>, quantMmaKernel<TT, 2>, quantMmaKernel<TT, 4>, quantMmaKernel<TT, 8>}};
}

template <int TT>
cudaError_t prepareType(int optin) {
    return prepareMmaKernels(kernelsOf<TT>(), optin - kStaticSmem);
}

template <int TT>
cudaError_t launchType(const MmaParams& p, int ctas, int splits, cudaStream_t s) {
    return launchMmaKernels(kernelsOf<TT>(), p, ctas, splits, smemBytes(TT, p.T, p.stages), s);
}

}  // namespace

cudaError_t launchMmaSplitReduce(const MmaParams& p, int splits, cudaStream_t s) {
    static const bool skipReduce = measureSkips("reduce");
    if (skipReduce) return cudaSuccess;
    const int64_t n = static_cast<int64_t>(p.T) * (p.mode == 2 ? p.totalRows / 2 : p.totalRows);
    return launchKernel(splitReduceKernel, static_cast<unsigned>((n + 255) / 256), 256, 0, s, p, splits);
}

cudaError_t prepareQuantMma(int sharedOptin) {
    for (cudaError_t e : {prepareType<2>(sharedOptin), prepareType<3>(sharedOptin), prepareType<6>(sharedOptin),
                          prepareType<7>(sharedOptin), prepareType<8>(sharedOptin), prepareType<10>(sharedOptin),
                          prepareType<11>(sharedOptin), prepareType<12>(sharedOptin), prepareType<13>(sharedOptin),
                          prepareType<14>(sharedOptin)})
        if (e != cudaSuccess) return e;
    return cudaSuccess;
}

MmaPlan planMmaLaunch(int type, int T, int sharedOptin, int sharedPerSm, int staticSmem,
                      size_t (*bytes)(int type, int T, int stages)) {
    MmaPlan pl;
    // The most tokens (a multiple of 8, up to kMmaMaxT) a launch takes with two steps in flight.
    const size_t optin = static_cast<size_t>(std::max(0, sharedOptin - staticSmem));
    int maxT = std::min((std::min(T, kMmaMaxT) + 7) / 8 * 8, kMmaMaxT);
    while (maxT >= 8 && bytes(type, maxT, 2) > optin) maxT -= 8;
    if (maxT < 8) return pl;
    pl.maxT = std::min(maxT, T);
    // Two CTAs per multiprocessor with two stages each where they fit, else one with three.
    const size_t perCta = static_cast<size_t>(staticSmem) + 1024;  // + the runtime's reservation per resident CTA
    auto ctasPerSm = [&](int stages) { return 2 * (bytes(type, pl.maxT, stages) + perCta) <= static_cast<size_t>(sharedPerSm) ? 2 : 1; };
    if (ctasPerSm(2) == 2) {
        pl.stages = 2;
        pl.ctasPerSm = 2;
    } else {
        pl.stages = bytes(type, pl.maxT, 3) <= optin ? 3 : 2;
        pl.ctasPerSm = 1;
    }
    // HEARTH_CUDA_MMA_STAGES=2..4 (measuring): that many stages where they fit.
    static const int forced = [] {
        const char* v = std::getenv("HEARTH_CUDA_MMA_STAGES");
        return v ? std::clamp(std::atoi(v), 0, 4) : 0;
    }();
    if (forced >= 2 && bytes(type, pl.maxT, forced) <= optin) {
        pl.stages = forced;
        pl.ctasPerSm = ctasPerSm(forced);
    }
    return pl;
}

MmaPlan quantMmaPlan(int type, int T, int sharedOptin, int sharedPerSm) {
    if (!rawLdOf(type) || T < 1) return MmaPlan{};
    return planMmaLaunch(type, T, sharedOptin, sharedPerSm, kStaticSmem, smemBytes);
}

int quantMmaCtas(int rows, int mode) {
    const int per = mode == 2 ? kBM / 2 : kBM;
    return (rows + per - 1) / per;
}

int quantMmaSplits(int ctas, int cols, int multiProcessors, int ctasPerSm, int maxSplits) {
    // As many splits as keep the CTAs within one wave, each with at least two K steps.
    const int wave = multiProcessors * std::max(1, ctasPerSm);
    int splits = std::max(1, wave / std::max(1, ctas));
    splits = std::min({splits, std::max(1, cols / kBK / 2), std::max(1, maxSplits), 16});
    return splits;
}

cudaError_t launchQuantMma(const MmaParams& p, int splits, cudaStream_t s) {
    if (p.T < 1 || p.T > kMmaMaxT || p.cols % kBK != 0 || p.nSeg < 1 || p.nSeg > 3 || p.stages < 2 || p.stages > 4 ||
        (p.mode == 2 && p.nSeg != 1))
        return cudaErrorInvalidValue;
    const MmaSeg& last = p.seg[p.nSeg - 1];
    const int ctas = last.ctaBegin + quantMmaCtas(last.rows, p.mode);
    switch (p.type) {
        case 2: return launchType<2>(p, ctas, splits, s);
        case 3: return launchType<3>(p, ctas, splits, s);
        case 6: return launchType<6>(p, ctas, splits, s);
        case 7: return launchType<7>(p, ctas, splits, s);
        case 8: return launchType<8>(p, ctas, splits, s);
        case 10: return launchType<10>(p, ctas, splits, s);
        case 11: return launchType<11>(p, ctas, splits, s);
        case 12: return launchType<12>(p, ctas, splits, s);
        case 13: return launchType<13>(p, ctas, splits, s);
        case 14: return launchType<14>(p, ctas, splits, s);
        default: return cudaErrorInvalidValue;
    }
}

}  // namespace hearth::cuda
