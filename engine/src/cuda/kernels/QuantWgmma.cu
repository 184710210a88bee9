// Fused dequantize + tensor-core product of quantized weights and 17..64 tokens on Hopper's
// warpgroup MMAs (wgmma, sm_90a only): QuantMma.cu's CTAs, copies, dequantization and epilogue,
// with each warpgroup's products of a unit half as one wgmma.m64nNk16 instead of N/8 mma.sync per
// warp.
//
// Why: at 64 tokens QuantMma.cu's warps spend most of their issue slots on the products (per unit
// and lane 16 mma.sync and 8 16-byte input loads against ~30 instructions of dequantization;
// docs/benchmarks.md). A warpgroup MMA reads the inputs from shared memory itself and runs a whole
// 64-row × N-token × 16 product as one instruction, asynchronously, so the next unit's weights are
// decoded while the tensor cores work.
//
// Operands. A (the weights, 64 rows a warpgroup) comes from registers: the fragments of
// MmaWeightTiles.cuh as they are, since a warp's share of a wgmma A operand (16 rows) has the layout
// of mma.sync's m16n8k16 A. B (the inputs) comes from shared memory in the 128-byte-swizzled K-major
// layout: a stage's inputs are 4 "atoms" of 64 K elements, each NT*8 token rows of 128 bytes, whose
// 16-byte chunk c sits at chunk c ^ (token & 7). The MMA reads B's k order from memory as it is, so
// the inputs are prepared in the permuted unit order of MmaWeightTiles.cuh (ActPrepParams::
// mmaUnitOrder: element 8t + 2j + b of a unit stored at 8j + 2t + b); k16 half h of unit u is then
// the 32 bytes at element 32u + 16h of the step.
//
// Order of sums: per (row, token) the f32 sum runs over the units' k16 halves in K order, as in
// QuantMma.cu; the tensor cores' rounding inside a k16 product may differ from mma.sync's, so
// results agree with QuantMma.cu to f32 rounding, not bit for bit (CudaTensorCores tests).
//
// Pipelining: four units (half a K step) are decoded, then their eight MMAs go out behind one
// fence as one commit group. A thread waits for the group before last before decoding the next
// four units (so one group's MMAs overlap the next one's decoding and at most eight units'
// fragments are live), and for all of them before its K step's stage may be refilled. A fence and
// a group per unit, as before, held each warpgroup to one unit's decoding at a time: four units a
// group measured 2-3% faster at 64 sequences for Q4_K_M and 12-14% for Q6_K (H100,
// docs/benchmarks.md), the Q4_K 8-tile kernel at 128 registers (two CTAs a multiprocessor still
// fit), no spills.
// Shared memory written by cp.async (the generic proxy) is made visible to the MMAs (the async
// proxy) by fence.proxy.async before the barrier that publishes a stage.
#include <cuda_fp16.h>

#include <cstdlib>

#include "cuda/KernelParams.h"
#include "cuda/MeasureSkips.h"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"
#include "cuda/kernels/MmaCta.cuh"
#include "cuda/kernels/MmaWeightTiles.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HEARTH_WGMMA 1
#endif

namespace hearth::cuda {
namespace {

constexpr int kBM = kMmaBM, kBK = kMmaBK, kThreads = kMmaWarps * 32, kUnits = kMmaUnits;
constexpr int kFacLd = 2 * kUnits + 1;  // words of a slot's factors (padded: no bank conflicts)

// A stage: the inputs first (1024-byte aligned, as the swizzle needs), then the weight tile; the
// factors after the last stage, then (bulk weight copies) an mbarrier per stage.
template <int TT, int NT> struct WgShape {
    static constexpr int kAtom = NT * 8 * 128;            // 64 K elements of every token row
    static constexpr int kXTile = 4 * kAtom;
    static constexpr int kStage = kXTile + kBM * MmaShape<TT>::kRawLd;  // a multiple of 1024
    static constexpr int kFacBytes = kBM * kFacLd * 4;
    static constexpr size_t bytes(int stages) { return static_cast<size_t>(stages) * (kStage + 8) + kFacBytes; }
};

template <int TT, int NT>
constexpr int kMinCtas = 2 * (WgShape<TT, NT>::bytes(2) + 1024) <= 233472 ? 2 : 1;

#ifdef HEARTH_WGMMA
__device__ __forceinline__ void wgFence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgCommit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgWait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }

// Keeps the compiler from moving accesses to the accumulators across this point (they are written
// by MMAs in flight between the first MMA and the last wait).
template <int NT>
__device__ __forceinline__ void fenceOperands(float (&d)[NT][4]) {
#pragma unroll
    for (int n = 0; n < NT; ++n)
#pragma unroll
        for (int k = 0; k < 4; ++k) asm volatile("" : "+f"(d[n][k])::"memory");
}

// A shared-memory matrix descriptor of a K-major, 128-byte-swizzled operand at `addr`: 8-row
// groups 1024 bytes apart (the leading offset is unused in this layout).
__device__ __forceinline__ uint64_t swizzled128(uint32_t addr) {
    return static_cast<uint64_t>((addr & 0x3FFFFu) >> 4) | (static_cast<uint64_t>(1) << 16) |
           (static_cast<uint64_t>(1024 >> 4) << 32) | (static_cast<uint64_t>(1) << 62);
}

// d += A (registers) × B (descriptor), 64 rows × 8 NT tokens × 16.
template <int NT>
__device__ __forceinline__ void wgmma(float (&d)[NT][4], const uint32_t (&a)[4], uint64_t desc);

template <>
__device__ __forceinline__ void wgmma<8>(float (&d)[8][4], const uint32_t (&a)[4], uint64_t desc) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "{%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
        : "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]), "+f"(d[1][0]), "+f"(d[1][1]), "+f"(d[1][2]),
          "+f"(d[1][3]), "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]), "+f"(d[3][0]), "+f"(d[3][1]),
          "+f"(d[3][2]), "+f"(d[3][3]), "+f"(d[4][0]), "+f"(d[4][1]), "+f"(d[4][2]), "+f"(d[4][3]), "+f"(d[5][0]),
          "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]), "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]),
          "+f"(d[7][0]), "+f"(d[7][1]), "+f"(d[7][2]), "+f"(d[7][3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}

template <>
__device__ __forceinline__ void wgmma<4>(float (&d)[4][4], const uint32_t (&a)[4], uint64_t desc) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
        "{%16, %17, %18, %19}, %20, p, 1, 1, 0;\n}\n"
        : "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]), "+f"(d[1][0]), "+f"(d[1][1]), "+f"(d[1][2]),
          "+f"(d[1][3]), "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]), "+f"(d[3][0]), "+f"(d[3][1]),
          "+f"(d[3][2]), "+f"(d[3][3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}
#endif

// NT: 8-token tiles of the launch (4 or 8; tokens T <= 8 NT). kBulk: the weights come by bulk copies
// (MmaWeightBulk) instead of MmaWeightCopies' 16-byte cp.async.
template <int TT, int NT, bool kBulk>
__global__ void __launch_bounds__(kThreads, (kMinCtas<TT, NT>)) quantWgmmaKernel(const MmaParams p) {
#ifdef HEARTH_WGMMA
    using S = MmaShape<TT>;
    using W = WgShape<TT, NT>;
    extern __shared__ __align__(1024) uint8_t smem[];
    const uint32_t smemAddr = sharedAddr(smem);
    if (smemAddr & 1023u) __trap();  // the swizzle is on address bits: a misplaced tile would mix tokens
    // Per slot and unit: packed (scale, add) of its lower, upper half. Each warp computes and reads
    // only its own 16 slots' factors.
    uint32_t* fac = reinterpret_cast<uint32_t*>(smem + p.stages * W::kStage);
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, tq = lane & 3;
    const MmaCta cta(p, kBK);
    const int ks0 = cta.ks0, nk = cta.nk;

    const uint32_t bars = smemAddr + static_cast<uint32_t>(p.stages * W::kStage + W::kFacBytes);  // 8 bytes a stage
    if constexpr (kBulk) {
        if (tid < p.stages) barInit(bars + 8 * tid, kMmaBM);
        barFenceInit();
        __syncthreads();
    }
    const MmaWeightCopies<TT, kThreads> wCopies(p, cta, tid);
    const MmaWeightBulk<TT> wBulk(p, cta, tid);
    auto issueW = [&](int ks, int st) {
        const uint32_t tile = smemAddr + static_cast<uint32_t>(st * W::kStage + W::kXTile);
        if constexpr (kBulk) wBulk.issue(tile, ks, bars + 8 * st);
        else wCopies.issue(tile, ks);
    };
    auto waitW = [&](int st, int lap) {
        if constexpr (kBulk) barWait(bars + 8 * st, static_cast<uint32_t>(lap));
    };
    // Input copies: this thread's 16-byte chunk (tid & 31) of the K step, of token rows (tid >> 5) + 8i
    // (whose row & 7 is the same). Token rows past T are left as they are: an output column depends
    // on its own input row only.
    const int xT0 = tid >> 5, xC = tid & 31;
    const __half* xSrc = p.x + static_cast<int64_t>(xT0) * p.cols + 8 * xC;
    const int64_t xTileStride = static_cast<int64_t>(8) * p.cols;  // elements between token rows 8 apart
    const uint32_t xDst = static_cast<uint32_t>((xC >> 3) * W::kAtom + xT0 * 128 + 16 * ((xC & 7) ^ xT0));
    auto issueX = [&](int ks, int st) {
        const uint32_t xs = smemAddr + static_cast<uint32_t>(st * W::kStage) + xDst;
        const __half* src = xSrc + static_cast<int64_t>(ks) * kBK;
#pragma unroll
        for (int i = 0; i < NT; ++i) cpAsync16If(xs + 1024 * i, src + i * xTileStride, xT0 + 8 * i < p.copyTokens);
    };

    startMmaCopies(cta, p.stages, issueW, issueX);

    const int slotA = warp * 16 + g, slotB = slotA + 8;
    const int rowA = cta.slotRow(slotA), rowB = cta.slotRow(slotB);
    // The factors this lane computes each step (stageFactors): one of its warp's slots, half the units.
    const int facSlot = warp * 16 + (lane & 15), facRow = cta.slotRow(facSlot), facHi = lane >> 4;
    float acc[NT][4];
    zeroSums(acc);

    fenceOperands(acc);
    MmaStageRing ring(p.stages);
    for (int i = 0; i < nk; ++i) {
        // (Every MMA of the step before has completed: the wait at the end of each step.)
        const int st = ring.next<true>(cta, i, p.stages, issueW, issueX, waitW);
        const int ks = ks0 + i;
        const uint32_t xs = smemAddr + static_cast<uint32_t>(st * W::kStage);
        const uint8_t* raw = smem + st * W::kStage + W::kXTile;
        if (p.measureSkipMath) continue;
        stageFactors<TT>(raw + facSlot * S::kRawLd + rawMisalign<TT>(p, facRow, ks), facHi, fac + facSlot * kFacLd);
        __syncwarp();
        const MmaStepFragments<TT> frags(p, raw, slotA, rowA, rowB, ks, fac + slotA * kFacLd, fac + slotB * kFacLd, tq);
        constexpr int kGroup = 4;  // units a commit group (see Pipelining above)
#pragma unroll
        for (int u = 0; u < kUnits; u += kGroup) {
            uint32_t frag[kGroup][2][4];
#pragma unroll
            for (int v = 0; v < kGroup; ++v) frags.unit(u + v, frag[v]);
            wgFence();
#pragma unroll
            for (int v = 0; v < kGroup; ++v) {
                const int unit = u + v;
                const uint32_t unitX = xs + static_cast<uint32_t>((unit >> 1) * W::kAtom + 64 * (unit & 1));
                wgmma<NT>(acc, frag[v][0], swizzled128(unitX));
                wgmma<NT>(acc, frag[v][1], swizzled128(unitX + 32));
            }
            wgCommit();
            wgWait<1>();
        }
        wgWait<0>();   // the stage may be refilled after the next barrier
        __syncwarp();  // the factors are rewritten next step
    }
    wgWait<0>();
    fenceOperands(acc);

    storeMmaSums<NT>(p, cta, acc, warp, g, tq, smem);
#endif
}

template <int TT, bool kBulk>
MmaKernels kernelsOf() {
    // Only the 4- and 8-tile forms: launches of up to 16 tokens keep QuantMma.cu's kernels.
    return {{nullptr, nullptr, quantWgmmaKernel<TT, 4, kBulk>, quantWgmmaKernel<TT, 8, kBulk>}};
}

// p's launch on type TT's kernels of the copy form p.bulkWeights picks.
template <int TT>
cudaError_t launchType(const MmaParams& p, int ctas, int splits, size_t smem, cudaStream_t s) {
    return launchMmaKernels(p.bulkWeights ? kernelsOf<TT, true>() : kernelsOf<TT, false>(), p, ctas, splits, smem, s);
}

size_t smemBytes(int type, int T, int stages) {
    const bool wide = mmaTilesFor(T) == 8;
    switch (type) {
        case 8: return wide ? WgShape<8, 8>::bytes(stages) : WgShape<8, 4>::bytes(stages);
        case 12: return wide ? WgShape<12, 8>::bytes(stages) : WgShape<12, 4>::bytes(stages);
        case 13: return wide ? WgShape<13, 8>::bytes(stages) : WgShape<13, 4>::bytes(stages);
        case 14: return wide ? WgShape<14, 8>::bytes(stages) : WgShape<14, 4>::bytes(stages);
        default: return 0;
    }
}

template <int TT>
cudaError_t prepareType(int optin) {
    for (auto* k : {quantWgmmaKernel<TT, 4, false>, quantWgmmaKernel<TT, 8, false>, quantWgmmaKernel<TT, 4, true>,
                    quantWgmmaKernel<TT, 8, true>})
        if (cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin); e != cudaSuccess)
            return e;
    return cudaSuccess;
}

__global__ void wgmmaProbeKernel(int* built) {
#ifdef HEARTH_WGMMA
    *built = 1;
#else
    *built = 0;
#endif
}

}  // namespace

bool quantWgmmaSupports(int type) { return type == 8 || type == 12 || type == 13 || type == 14; }

cudaError_t prepareQuantWgmma(int sharedOptin) {
    // Only a device this library carries sm_90a code for runs these kernels: ask the device.
    int* built = nullptr;
    if (cudaError_t e = cudaMalloc(&built, sizeof(int)); e != cudaSuccess) return e;
    int host = 0;
    wgmmaProbeKernel<<<1, 1>>>(built);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpy(&host, built, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(built);
    if (e != cudaSuccess) return e;
    if (!host) return cudaErrorNotSupported;
    for (cudaError_t r : {prepareType<8>(sharedOptin), prepareType<12>(sharedOptin), prepareType<13>(sharedOptin),
                          prepareType<14>(sharedOptin)})
        if (r != cudaSuccess) return r;
    return cudaSuccess;
}

MmaPlan quantWgmmaPlan(int type, int T, int sharedOptin, int sharedPerSm) {
    if (!quantWgmmaSupports(type) || T <= 16 || T > kMmaMaxT) return MmaPlan{};
    MmaPlan pl = planMmaLaunch(type, T, sharedOptin, sharedPerSm, 0, smemBytes);
    if (pl.maxT < T) return MmaPlan{};  // one launch or none: a split would give a part 16 tokens or fewer
    return pl;
}

cudaError_t launchQuantWgmma(const MmaParams& p, int splits, cudaStream_t s) {
    if (p.T <= 16 || p.T > kMmaMaxT || p.cols % kBK != 0 || p.nSeg < 1 || p.nSeg > 3 || p.stages < 2 || p.stages > 4 ||
        (p.mode == 2 && p.nSeg != 1) || !quantWgmmaSupports(p.type))
        return cudaErrorInvalidValue;
    const MmaSeg& last = p.seg[p.nSeg - 1];
    const int ctas = last.ctaBegin + quantMmaCtas(last.rows, p.mode);
    const size_t smem = smemBytes(p.type, p.T, p.stages);
    switch (p.type) {
        case 8: return launchType<8>(p, ctas, splits, smem, s);
        case 12: return launchType<12>(p, ctas, splits, smem, s);
        case 13: return launchType<13>(p, ctas, splits, smem, s);
        default: return launchType<14>(p, ctas, splits, smem, s);
    }
}

}  // namespace hearth::cuda
