#pragma once
// What the two tensor-core kernels (QuantMma.cu: f16 form, QuantMmaI8.cu: integer form) share: a
// CTA's place in a launch and the way its sums leave it.
//
// A launch's CTAs: segment s (p.seg[s], up to 3 matrices of the same input) owns CTAs
// ctaBegin(s) .. ctaBegin(s+1) - 1, each 128 weight rows (mode 0 / 1), or in pair mode (2, one
// segment, p.seg[0] gate and p.seg[1] up) 64 gate rows in slots 0..63 and the same 64 up rows in
// slots 64..127. blockIdx.y is the CTA's split of the K range (gridDim.y splits, whole 256-element
// steps, the first splits no longer than the last).
#include "cuda/KernelParams.h"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {

constexpr int kMmaBM = 128, kMmaHalf = kMmaBM / 2, kMmaWarps = 8;

struct MmaCta {
    const MmaSeg* sg;   // this CTA's segment
    int seg;            // its index in p.seg
    bool pair;          // mode 2: gate and up rows
    int rowBase;        // the segment row of slot 0
    int ks0, nk;        // the first K step and how many

    __device__ __forceinline__ MmaCta(const MmaParams& p, int stepElems) {
        int si = 0;
        while (si + 1 < p.nSeg && static_cast<int>(blockIdx.x) >= p.seg[si + 1].ctaBegin) ++si;
        sg = &p.seg[si];
        seg = si;
        pair = p.mode == 2;
        rowBase = (static_cast<int>(blockIdx.x) - sg->ctaBegin) * (pair ? kMmaHalf : kMmaBM);
        const int kSteps = p.cols / stepElems;
        ks0 = static_cast<int>(static_cast<int64_t>(kSteps) * blockIdx.y / gridDim.y);
        nk = static_cast<int>(static_cast<int64_t>(kSteps) * (blockIdx.y + 1) / gridDim.y) - ks0;
    }
    // The segment row of a slot (0..127), and the matrix it comes from.
    __device__ __forceinline__ int slotRow(int slot) const { return rowBase + (pair ? (slot & (kMmaHalf - 1)) : slot); }
    __device__ __forceinline__ const uint8_t* slotW(const MmaParams& p, int slot) const {
        return pair ? p.seg[slot < kMmaHalf ? 0 : 1].w : sg->w;
    }
};

// The copies of the first stages - 1 K steps, a commit group each (empty ones past nk): the first
// step's weights before pdlWait() (read-only, so they may come before the previous kernel ends),
// the inputs, which that kernel writes, after it.
template <class IssueW, class IssueX>
__device__ __forceinline__ void startMmaCopies(const MmaCta& c, int stages, IssueW&& issueW, IssueX&& issueX) {
    if (c.nk > 0) issueW(c.ks0, 0);
    pdlWait();
    pdlTrigger();
    if (c.nk > 0) issueX(c.ks0, 0);
    cpCommit();
    for (int i = 1; i < stages - 1; ++i) {
        if (i < c.nk) {
            issueW(c.ks0 + i, i);
            issueX(c.ks0 + i, i);
        }
        cpCommit();
    }
}

template <int NT>
__device__ __forceinline__ void zeroSums(float (&acc)[NT][4]) {
#pragma unroll
    for (int n = 0; n < NT; ++n)
#pragma unroll
        for (int k = 0; k < 4; ++k) acc[n][k] = 0.f;
}

// A CTA's ring of `stages` K steps in flight, the first stages - 1 issued by startMmaCopies. For
// step i (0 .. nk - 1) next() waits until its copies have landed (this thread's, then everyone's:
// the barrier, after which no one still computes the stage of step i - 1), refills that stage with
// step i + stages - 1 (an empty commit group past nk, so the wait count stays fixed) and returns
// step i's stage. Stages are counters: the stage count is a launch parameter, and a division per
// step costs more than a compare. kAsyncProxy: the stage is read by warpgroup MMAs (the async
// proxy), so the copies are made visible to it before the barrier.
//
// waitW(stage, lap): where the weights come by bulk copies on per-stage mbarriers, waits for the
// stage's fill of this lap (lap: 0, 1, 0, ... each time the ring wraps, the phase parity).
struct MmaStageRing {
    int use = 0, fill, lap = 0;
    __device__ __forceinline__ explicit MmaStageRing(int stages) : fill(stages - 1) {}
    template <bool kAsyncProxy = false, class IssueW, class IssueX>
    __device__ __forceinline__ int next(const MmaCta& c, int i, int stages, IssueW&& issueW, IssueX&& issueX) {
        return next<kAsyncProxy>(c, i, stages, issueW, issueX, [](int, int) {});
    }
    template <bool kAsyncProxy, class IssueW, class IssueX, class WaitW>
    __device__ __forceinline__ int next(const MmaCta& c, int i, int stages, IssueW&& issueW, IssueX&& issueX, WaitW&& waitW) {
        cpWaitPending(stages - 2);
        waitW(use, lap);
        if constexpr (kAsyncProxy) asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        if (i + stages - 1 < c.nk) {
            issueW(c.ks0 + i + stages - 1, fill);
            issueX(c.ks0 + i + stages - 1, fill);
        }
        cpCommit();
        fill = fill + 1 == stages ? 0 : fill + 1;
        const int st = use;
        if (++use == stages) {
            use = 0;
            lap ^= 1;
        }
        return st;
    }
};

// The CTA's sums out: acc[nt] of a lane (g, tq) of warp w holds (slotA, t), (slotA, t + 1),
// (slotB, t), (slotB, t + 1) with slotA = 16w + g, slotB = slotA + 8, t = 8 nt + 2 tq. Split
// launches write their partial sums (launchMmaSplitReduce adds them); pair launches pass the up
// rows' sums through shared memory (`smem`, free once every copy has landed) to the gate rows'
// warps, which write silu(gate) * up; others write (mode 0) or add to (mode 1) y. Every thread of
// the CTA calls it.
template <int NT>
__device__ __forceinline__ void storeMmaSums(const MmaParams& p, const MmaCta& c, const float (&acc)[NT][4], int warp,
                                             int g, int tq, uint8_t* smem) {
    const MmaSeg& sg = *c.sg;
    const int slotA = warp * 16 + g, slotB = slotA + 8;
    const int rowA = c.slotRow(slotA), rowB = c.slotRow(slotB);
    auto forEachSum = [&](auto&& f) {
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) {
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int slot = k < 2 ? slotA : slotB, row = k < 2 ? rowA : rowB, t = nt * 8 + 2 * tq + (k & 1);
                if (row < sg.rows && t < p.T) f(slot, row, t, acc[nt][k]);
            }
        }
    };
    const bool split = gridDim.y > 1;
    if (c.pair && !split) {
        cpWaitPending(0);
        __syncthreads();
        float* up = reinterpret_cast<float*>(smem);  // [64 rows][NT * 8]
        constexpr int ldu = NT * 8;
        if (warp >= kMmaWarps / 2) forEachSum([&](int slot, int, int t, float v) { up[(slot - kMmaHalf) * ldu + t] = v; });
        __syncthreads();
        if (warp >= kMmaWarps / 2) return;
        forEachSum([&](int slot, int row, int t, float v) { sg.y[static_cast<int64_t>(t) * sg.ldy + row] = siluMul(v, up[slot * ldu + t]); });
        return;
    }
    forEachSum([&](int slot, int row, int t, float v) {
        if (split) {
            const int prow = (c.pair ? (slot < kMmaHalf ? 0 : sg.rows) : sg.rowOffset) + row;
            p.partial[(static_cast<int64_t>(blockIdx.y) * p.T + t) * p.totalRows + prow] = v;
        } else {
            float* y = sg.y + static_cast<int64_t>(t) * sg.ldy + row;
            *y = p.mode == 1 ? *y + v : v;
        }
    });
}

// Host side. A launch of T tokens takes the kernel built for mmaTilesFor(T) 8-token tiles (1, 2, 4
// or 8); a form's kernels for one weight type, by that count.
inline int mmaTilesFor(int T) { return T <= 8 ? 1 : T <= 16 ? 2 : T <= 32 ? 4 : 8; }

struct MmaKernels {
    void (*byTiles[4])(MmaParams);  // 1, 2, 4, 8 tiles
};

// Lets each kernel take `bytes` of dynamic shared memory.
inline cudaError_t prepareMmaKernels(const MmaKernels& k, int bytes) {
    for (auto* kernel : k.byTiles)
        if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); e != cudaSuccess)
            return e;
    return cudaSuccess;
}

// p's launch of `kernel` over `ctas` CTAs and `splits` K splits with `smem` bytes of dynamic shared
// memory (its parameters: p, with the tokens to copy set, then `extra`), then the split-K reduction
// where there is one.
template <typename... Extra>
cudaError_t launchMmaKernel(void (*kernel)(MmaParams, Extra...), const MmaParams& p, int ctas, int splits, size_t smem,
                            cudaStream_t s, const Extra&... extra) {
    MmaParams q = p;
    q.copyTokens = p.skipInputCopies ? 0 : p.T;
    const cudaError_t e = launchKernel(kernel, dim3(ctas, splits), dim3(kMmaWarps * 32), smem, s, q, extra...);
    if (e != cudaSuccess || splits == 1) return e;
    return launchMmaSplitReduce(p, splits, s);
}

// The same with the kernel of k built for p.T tokens.
inline cudaError_t launchMmaKernels(const MmaKernels& k, const MmaParams& p, int ctas, int splits, size_t smem,
                                   cudaStream_t s) {
    const int tiles = mmaTilesFor(p.T);
    return launchMmaKernel(k.byTiles[tiles == 1 ? 0 : tiles == 2 ? 1 : tiles == 4 ? 2 : 3], p, ctas, splits, smem, s);
}

}  // namespace hearth::cuda
