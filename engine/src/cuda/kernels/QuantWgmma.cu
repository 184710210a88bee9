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
// proxy) by fence.proxy.async before the barrier that publishes a stage; tensor-map copies (the
// default form for Q4_K, Q5_K and Q6_K, below) write through the async proxy themselves.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>

#include <cstdint>
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

// How a stage's copies are issued. kAsyncForm: 16-byte cp.async by every thread (weights and
// inputs; HEARTH_CUDA_MMA_BULK=0, or where no other form applies). kBulkForm: the weights by one
// bulk copy per row (MmaWeightBulk), the inputs by cp.async. kTmaForm: thread 0 issues the whole
// stage as six tensor-map boxes (two of 64 weight rows, four input atoms) on the stage's mbarrier.
// Why the tensor maps: the bulk form's 128 per-row copies are issued by warps 0-3, each walking its
// 32 lanes one at a time (the copy takes its operands in uniform registers); a measuring build
// (wip/wgmma-phases) found that issue at ~1,400 of the ~5,800 cycles of a warp's K step, and the
// other warps waiting for those four at the next barrier. With tensor maps, 64-sequence decode
// measured 12-13% faster for Q4_K_M and 17% for Q6_K (H100, logits bit-identical:
// docs/benchmarks.md). The maps are encoded on the host at each launch (a CUDA graph keeps them).
constexpr int kAsyncForm = 0, kBulkForm = 1, kTmaForm = 2;

// The tensor-map form's weight tile, rows kTmaLd bytes apart: where a type's K-step span is a
// multiple of 16 bytes (Q4_K 144, Q5_K 176) each row's span exactly, at the start of its row;
// otherwise (Q6_K 210) the 16-byte aligned run around it, as in the other forms (a box starting
// off 16 bytes is an illegal instruction: measured), the span rawMisalign() bytes in. A box holds
// at most 256 bytes a row, so Q8_0 (272) has no tensor-map form. Its stage keeps WgShape's size
// (kTmaLd <= kRawLd), so every form of a type plans the same shared memory.
template <int TT> constexpr bool kSpanAligned = MmaShape<TT>::kSpan % 16 == 0;
template <int TT> constexpr int kTmaLd = kSpanAligned<TT> ? MmaShape<TT>::kSpan : MmaShape<TT>::kRawLd;
template <int TT> constexpr bool kTmaType = kTmaLd<TT> <= 256;
constexpr int kTmaRows = kMmaHalf;  // a weight box's rows: two boxes a CTA (mode 2: gate, up)

// The tensor maps of a kTmaForm launch (unused by the other forms): x, the inputs ([T][cols] f16,
// boxes of 64 elements × the kernel's 8 NT tokens, 128-byte swizzle: the input atoms' layout; rows
// past T arrive as zeros), w[s], segment s's weights ([rows][rowBytes] bytes, boxes of kTmaLd bytes ×
// 64 rows; rows past the matrix arrive as zeros); mode 2: w[0] gate, w[1] up.
struct WgTmaMaps {
    CUtensorMap x;
    CUtensorMap w[3];
};

// A stage: the inputs first (1024-byte aligned, as the swizzle needs), then the weight tile; the
// factors after the last stage, then (bulk and tensor-map copies) an mbarrier per stage and (tensor-
// map copies) a release counter per stage.
template <int TT, int NT> struct WgShape {
    static constexpr int kAtom = NT * 8 * 128;            // 64 K elements of every token row
    static constexpr int kXTile = 4 * kAtom;
    static constexpr int kStage = kXTile + kBM * MmaShape<TT>::kRawLd;  // a multiple of 1024
    static constexpr int kFacBytes = kBM * kFacLd * 4;
    static constexpr size_t bytes(int stages) { return static_cast<size_t>(stages) * (kStage + 16) + kFacBytes; }
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

// NT: 8-token tiles of the launch (4 or 8; tokens T <= 8 NT). kForm: how the copies are issued
// (kAsyncForm, kBulkForm, kTmaForm above); maps: kTmaForm's tensor maps.
template <int TT, int NT, int kForm>
__global__ void __launch_bounds__(kThreads, (kMinCtas<TT, NT>))
    quantWgmmaKernel(const MmaParams p, const __grid_constant__ WgTmaMaps maps) {
#ifdef HEARTH_WGMMA
    using S = MmaShape<TT>;
    using W = WgShape<TT, NT>;
    constexpr bool kBulk = kForm == kBulkForm, kTma = kForm == kTmaForm;
    constexpr int kLd = kTma ? kTmaLd<TT> : S::kRawLd;  // the weight tile's bytes a row
    static_assert(!kTma || kTmaType<TT>, "a tensor-map box holds at most 256 bytes a row");
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
    if constexpr (kBulk || kTma) {
        if (tid < p.stages) {
            barInit(bars + 8 * tid, kBulk ? kMmaBM : 1);
            if constexpr (kTma) reinterpret_cast<uint32_t*>(smem + p.stages * W::kStage + W::kFacBytes + 8 * p.stages)[tid] = 0;
        }
        barFenceInit();
        __syncthreads();
    }
    const MmaWeightCopies<TT, kThreads> wCopies(p, cta, tid);
    const MmaWeightBulk<TT> wBulk(p, cta, tid);
    // kTmaForm: a stage's bytes, all expected by the issuing thread's one arrival on the stage's barrier.
    const uint32_t tmaBytesW = p.skipWeightCopies ? 0u : static_cast<uint32_t>(2 * kTmaRows * kLd);
    const uint32_t tmaBytesX = p.copyTokens > 0 ? static_cast<uint32_t>(W::kXTile) : 0u;
    // kTmaForm: the calling thread expects a stage's bytes on its barrier and issues its weight boxes
    // (then tmaIssueX its input atoms). The stage was last read by plain loads (decoding), ordered
    // before this thread by the caller (the release count below): the proxy fence orders those reads
    // before the copies' writes.
    const uint32_t releases = bars + 8 * static_cast<uint32_t>(p.stages);  // 4 bytes a stage
    auto tmaIssueW = [&](int ks, int st) {
        const uint32_t tile = smemAddr + static_cast<uint32_t>(st * W::kStage + W::kXTile), bar = bars + 8 * st;
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        barExpect(bar, tmaBytesW + tmaBytesX);  // before any of the stage's copies is issued
        if (tmaBytesW == 0) return;
        const int c0 = (ks * S::kSpan) & ~15;  // the span's start, or the 16 bytes before it
        tensorCopy2d(tile, &maps.w[cta.pair ? 0 : cta.seg], c0, cta.rowBase, bar);
        tensorCopy2d(tile + kTmaRows * kLd, &maps.w[cta.pair ? 1 : cta.seg], c0,
                     cta.pair ? cta.rowBase : cta.rowBase + kTmaRows, bar);
    };
    auto tmaIssueX = [&](int ks, int st) {
        if (tmaBytesX == 0) return;
        const uint32_t xs = smemAddr + static_cast<uint32_t>(st * W::kStage);
#pragma unroll
        for (int a = 0; a < 4; ++a) tensorCopy2d(xs + a * W::kAtom, &maps.x, ks * kBK + 64 * a, 0, bars + 8 * st);
    };
    // The other forms' copies, for their ring (MmaStageRing).
    auto issueW = [&](int ks, int st) {
        const uint32_t tile = smemAddr + static_cast<uint32_t>(st * W::kStage + W::kXTile);
        if constexpr (kBulk) {
            wBulk.issue(tile, ks, bars + 8 * st);
        } else {
            wCopies.issue(tile, ks);
        }
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

    const int slotA = warp * 16 + g, slotB = slotA + 8;
    const int rowA = cta.slotRow(slotA), rowB = cta.slotRow(slotB);
    // The factors this lane computes each step (stageFactors): one of its warp's slots, half the units.
    const int facSlot = warp * 16 + (lane & 15), facRow = cta.slotRow(facSlot), facHi = lane >> 4;
    float acc[NT][4];
    zeroSums(acc);

    // One K step of this warp on stage st: factors, then the units in commit groups; every MMA of
    // the step has completed when it returns.
    auto step = [&](int st, int ks) {
        const uint32_t xs = smemAddr + static_cast<uint32_t>(st * W::kStage);
        const uint8_t* raw = smem + st * W::kStage + W::kXTile;
        constexpr bool kAtRowStart = kTma && kSpanAligned<TT>;
        stageFactors<TT>(raw + facSlot * kLd + (kAtRowStart ? 0 : rawMisalign<TT>(p, facRow, ks)), facHi, fac + facSlot * kFacLd);
        __syncwarp();
        const MmaStepFragments<TT, kLd, kAtRowStart> frags(p, raw, slotA, rowA, rowB, ks, fac + slotA * kFacLd, fac + slotB * kFacLd,
                                                    tq);
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
        wgWait<0>();   // the stage may be refilled once every warp is done with it
        __syncwarp();  // the factors are rewritten next step
    };

    fenceOperands(acc);
    if constexpr (kTma) {
        // No CTA barrier a step: each warp waits for its stage's copies on the stage's mbarrier, and
        // the last of the eight warps to be done with a stage refills it (step i + stages). A warp is
        // at most `stages` - 1 steps ahead of the slowest: a stage is refilled only once all have
        // released it. Why: with a barrier a step the two warpgroups decoded, and issued their MMAs,
        // in step (the phase build, wip/wgmma-tma-phases); without it they may drift apart. Measured
        // (H100, 64 sequences, logits bit-identical): Q6_K +3%, Q5_K_M +1.5%, Q4_K_M unchanged
        // (docs/benchmarks.md).
        if (tid == 0 && nk > 0) tmaIssueW(ks0, 0);  // the first step's weights before pdlWait (read-only)
        pdlWait();
        pdlTrigger();
        if (tid == 0)
            for (int i = 0; i < p.stages && i < nk; ++i) {
                if (i > 0) tmaIssueW(ks0 + i, i);
                tmaIssueX(ks0 + i, i);
            }
        int st = 0;
        uint32_t lap = 0;
        for (int i = 0; i < nk; ++i) {
            barWait(bars + 8 * st, lap);
            if (!p.measureSkipMath) step(st, ks0 + i);
            // Release: lane 0 counts this warp done with the stage (release: the warp's reads of it,
            // ordered by the __syncwarp in step(), come before; acquire: the counts of the warps
            // before it, and their reads, before a refill). Counts only grow: the eighth of each
            // round (count % 8 == 7) refills.
            __syncwarp();
            if (lane == 0) {
                uint32_t before;
                asm volatile("atom.acq_rel.cta.shared::cta.add.u32 %0, [%1], 1;\n"
                             : "=r"(before)
                             : "r"(releases + 4 * static_cast<uint32_t>(st))
                             : "memory");
                if (before % kMmaWarps == kMmaWarps - 1 && i + p.stages < nk) {
                    tmaIssueW(ks0 + i + p.stages, st);
                    tmaIssueX(ks0 + i + p.stages, st);
                }
            }
            if (++st == p.stages) {
                st = 0;
                lap ^= 1;
            }
        }
    } else {
        startMmaCopies(cta, p.stages, issueW, issueX);
        MmaStageRing ring(p.stages);
        for (int i = 0; i < nk; ++i) {
            // (Every MMA of the step before has completed: the wait at the end of each step.)
            const int st = ring.next<true>(cta, i, p.stages, issueW, issueX, waitW);
            if (!p.measureSkipMath) step(st, ks0 + i);
        }
    }
    wgWait<0>();
    fenceOperands(acc);

    storeMmaSums<NT>(p, cta, acc, warp, g, tq, smem);
#endif
}

// Types with a bulk form: Q8_0, which has no tensor-map form, and Q6_K, whose rows need not be a
// multiple of 16 bytes (a tensor map's row pitch must be).
template <int TT> constexpr bool kHasBulk = !kTmaType<TT> || !kSpanAligned<TT>;

// One launch of type TT's kernel of form kForm for p.T tokens, then the split-K reduction where
// there is one.
template <int TT, int kForm>
cudaError_t launchForm(const MmaParams& p, const WgTmaMaps& maps, int ctas, int splits, size_t smem, cudaStream_t s) {
    void (*kernel)(MmaParams, WgTmaMaps) =
        mmaTilesFor(p.T) == 8 ? quantWgmmaKernel<TT, 8, kForm> : quantWgmmaKernel<TT, 4, kForm>;
    return launchMmaKernel(kernel, p, ctas, splits, smem, s, maps);
}

// cuTensorMapEncodeTiled through the runtime's driver entry point (no link to the driver library),
// looked up once; null where the driver has none.
PFN_cuTensorMapEncodeTiled_v12000 tensorMapEncoder() {
    static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
        void* f = nullptr;
        cudaDriverEntryPointQueryResult q{};
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess) {
            (void)cudaGetLastError();
            f = nullptr;
        }
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
    }();
    return fn;
}

// A 2-D map of `rows` rows of `inner` elements, `pitch` bytes apart, read in boxes of boxInner ×
// boxRows; false where the driver cannot encode it (a base or pitch off 16 bytes among others).
bool encodeMap(CUtensorMap& map, CUtensorMapDataType type, const void* base, uint64_t inner, uint64_t rows, uint64_t pitch,
               uint32_t boxInner, uint32_t boxRows, CUtensorMapSwizzle swizzle) {
    const PFN_cuTensorMapEncodeTiled_v12000 encode = tensorMapEncoder();
    if (!encode || reinterpret_cast<uintptr_t>(base) % 16 != 0 || pitch % 16 != 0 || rows == 0 || inner == 0) return false;
    const cuuint64_t dims[2] = {inner, rows}, strides[1] = {pitch};
    const cuuint32_t box[2] = {boxInner, boxRows}, elementStrides[2] = {1, 1};
    return encode(&map, type, 2, const_cast<void*>(base), dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// p's tensor maps (WgTmaMaps); false where one cannot be encoded.
template <int TT>
bool tmaMaps(const MmaParams& p, WgTmaMaps& m) {
    const uint32_t tokens = 8u * static_cast<uint32_t>(mmaTilesFor(p.T));
    if (!encodeMap(m.x, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, p.x, static_cast<uint64_t>(p.cols), static_cast<uint64_t>(p.T),
                   2ull * static_cast<uint64_t>(p.cols), 64, tokens, CU_TENSOR_MAP_SWIZZLE_128B))
        return false;
    const int maps = p.mode == 2 ? 2 : p.nSeg;
    for (int i = 0; i < maps; ++i) {
        const int rows = p.mode == 2 ? p.seg[0].rows : p.seg[i].rows;  // mode 2: gate and up rows alike
        if (!encodeMap(m.w[i], CU_TENSOR_MAP_DATA_TYPE_UINT8, p.seg[i].w, static_cast<uint64_t>(p.rowBytes),
                       static_cast<uint64_t>(rows), static_cast<uint64_t>(p.rowBytes), kTmaLd<TT>, kTmaRows,
                       CU_TENSOR_MAP_SWIZZLE_NONE))
            return false;
    }
    return true;
}

// p's launch on type TT's kernels. p.bulkWeights (LinearOps: on unless HEARTH_CUDA_MMA_BULK=0) asks
// for the copy engines: the tensor-map form where the type has one and its maps encode, else the
// bulk form where the type has one; otherwise, and without bulkWeights, the cp.async form.
template <int TT>
cudaError_t launchType(const MmaParams& p, int ctas, int splits, size_t smem, cudaStream_t s) {
    WgTmaMaps maps{};
    if (p.bulkWeights) {
        if constexpr (kTmaType<TT>) {
            if (tmaMaps<TT>(p, maps)) return launchForm<TT, kTmaForm>(p, maps, ctas, splits, smem, s);
        }
        if constexpr (kHasBulk<TT>) return launchForm<TT, kBulkForm>(p, maps, ctas, splits, smem, s);
    }
    return launchForm<TT, kAsyncForm>(p, maps, ctas, splits, smem, s);
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

template <int TT, int kForm>
cudaError_t prepareForm(int optin) {
    for (auto* k : {quantWgmmaKernel<TT, 4, kForm>, quantWgmmaKernel<TT, 8, kForm>})
        if (cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin); e != cudaSuccess)
            return e;
    return cudaSuccess;
}

template <int TT>
cudaError_t prepareType(int optin) {
    cudaError_t e = prepareForm<TT, kAsyncForm>(optin);
    if constexpr (kTmaType<TT>) {
        if (e == cudaSuccess) e = prepareForm<TT, kTmaForm>(optin);
    }
    if constexpr (kHasBulk<TT>) {
        if (e == cudaSuccess) e = prepareForm<TT, kBulkForm>(optin);
    }
    return e;
}

}  // namespace

bool quantWgmmaSupports(int type) { return type == 8 || type == 12 || type == 13 || type == 14; }

cudaError_t prepareQuantWgmma(int sharedOptin, const DeviceCode& code) {
    // Only sm_90a code has these kernels' bodies (HEARTH_WGMMA, set by __CUDA_ARCH_FEAT_SM90_ALL,
    // the macro the probe reports as DeviceCode::sm90a).
    if (!code.sm90a) return cudaErrorNotSupported;
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
