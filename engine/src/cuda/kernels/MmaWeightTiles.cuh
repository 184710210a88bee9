#pragma once
// How the f16 tensor-core kernels (QuantMma.cu: mma.sync, QuantWgmma.cu: Hopper warpgroup MMAs)
// turn raw GGUF weight bytes in shared memory into f16 A fragments, without an f16 weight tile.
//
// A K step is 256 elements: 8 units of 32. Inside a unit the MMA's k order is permuted, the same
// way for both operands (which a sum does not see): in k16 half h, lane (g, t) holds unit elements
// 8t+4h .. 8t+4h+3, i.e. word 2t+h of the unit, as its A registers {a0, a2} (row g) and {a1, a3}
// (row g + 8). A CTA's weight tile of a K step: kMmaBM rows of MmaShape::kRawLd bytes, the K step's
// raw bytes of row `slot` at slot * kRawLd + rawMisalign(). Each weight is dequantized to f16 as fma(q, f16(d*s), f16(-dmin*m)) (the legacy
// types: q*d + m).
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/KernelParams.h"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/MmaCta.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {

constexpr int kMmaBK = 256;              // elements of a K step
constexpr int kMmaXRowBytes = kMmaBK * 2;  // one token's f16 inputs of a K step
constexpr int kMmaUnits = kMmaBK / 32;   // 32-element units of a K step

template <int TT> struct MmaShape {
    static constexpr int kSpan = kMmaBK / QType<TT>::kElems * QType<TT>::kBytes;  // bytes of a row's K step
    static constexpr int kRawLd = (kSpan + 14 + 15) / 16 * 16;  // + up to 14 bytes before the span (16-byte aligned copies)
    static constexpr int kChunks = kRawLd / 16;
};

__device__ __forceinline__ uint32_t asU32(__half2 h) { return *reinterpret_cast<const uint32_t*>(&h); }
__device__ __forceinline__ __half2 asHalf2(uint32_t u) { return *reinterpret_cast<const __half2*>(&u); }

// Four bytes b = q + Offset (QType::raw) as q * scale + add in f16: bytes 0, 1 in `lo`, bytes 2, 3
// in `hi`. A byte b becomes the f16 1024 + b by placing it under the exponent bits of 1024;
// subtracting 1024 + Offset leaves q exactly.
template <int Offset>
__device__ __forceinline__ void bytesToHalf(uint32_t v, __half2 scale, __half2 add, uint32_t& lo, uint32_t& hi) {
    const __half2 bias = asHalf2((0x6400u + Offset) * 0x10001u);
    const __half2 a = __hsub2(asHalf2(__byte_perm(v, 0x64646464u, 0x4140)), bias);
    const __half2 b = __hsub2(asHalf2(__byte_perm(v, 0x64646464u, 0x4342)), bias);
    lo = asU32(__hfma2(a, scale, add));
    hi = asU32(__hfma2(b, scale, add));
}

// The unit's dequantization as value = q * scale + add for its lower (upper = 0) or upper half,
// packed as the f16 pair (scale, add).
template <int Kind>
__device__ __forceinline__ uint32_t unitFactors(const Unit& u, int upper) {
    const float s = static_cast<float>(upper ? u.s1 : u.s0), m = static_cast<float>(upper ? u.m1 : u.m0);
    float sc = u.d, ad = 0.f;
    if (Kind == kLegacyMin) ad = u.mw;
    if (Kind == kKNoMin || Kind == kKMin) sc = u.d * s;
    if (Kind == kKMin) ad = -(u.dmin * m);
    return asU32(__floats2half2_rn(sc, ad));
}

// A fragments of one unit for slot rows A (lane group g) and B (g + 8): frag[h] = {a0, a1, a2, a3}
// of k16 half h. fac: the rows' packed (scale, add) of this lane's unit half (unitFactors). Rows
// past the matrix decode whatever the shared memory holds: an output row depends on its own A row
// only, and those rows' outputs are never stored.
template <int TT>
__device__ __forceinline__ void unitFragments(const uint8_t* blkA, const uint8_t* blkB, int j, int tq, uint32_t facA,
                                              uint32_t facB, uint32_t (&frag)[2][4]) {
    using Q = QType<TT>;
    const uint8_t* blk[2] = {blkA, blkB};
    const uint32_t fac[2] = {facA, facB};
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const __half2 f = asHalf2(fac[r]);
        const __half2 sc = __low2half2(f), ad = __high2half2(f);
        const uint2 w = Q::rawPair(blk[r], j, tq);
        bytesToHalf<Q::kOffset>(w.x, sc, ad, frag[0][r], frag[0][r + 2]);
        bytesToHalf<Q::kOffset>(w.y, sc, ad, frag[1][r], frag[1][r + 2]);
    }
}

// Where a row's K step starts inside its copied span: the span's offset from 16-byte alignment
// (only the low four bits matter, so 32-bit arithmetic). Blocks of a multiple of 16 bytes (Q4_K,
// Q5_K): every row of 256-element blocks starts aligned.
template <int TT>
__device__ __forceinline__ int rawMisalign(const MmaParams& p, int row, int ks) {
    if constexpr (QType<TT>::kBytes % 16 == 0) return 0;
    return static_cast<int>((static_cast<uint32_t>(row) * static_cast<uint32_t>(p.rowBytes) +
                             static_cast<uint32_t>(ks) * MmaShape<TT>::kSpan) & 15u);
}

// A thread's share of the copies of a CTA's weight tile, one K step at a time. Everything that does
// not change from one K step to the next is computed once: a copy is then a pointer add, a shared
// address add and one predicated cp.async (computing addresses per step, with a generic-to-shared
// conversion and a branch per copy, was ~220 of the ~770 instructions a warp spent per K step; H200
// SASS). Rows of 16-byte aligned blocks (Q4_K, Q5_K) copy exactly their span's chunks from a source
// fixed per task but for the step's offset; the others copy the 16-byte chunks around their span
// (which may start anywhere), found per step.
template <int TT, int kThreads>
struct MmaWeightCopies {
    using Q = QType<TT>;
    using S = MmaShape<TT>;
    static constexpr bool kAlignedRows = Q::kBytes % 16 == 0;
    static constexpr int kRowChunks = kAlignedRows ? S::kSpan / 16 : S::kChunks;
    static constexpr int kTasks = kMmaBM * kRowChunks, kPer = (kTasks + kThreads - 1) / kThreads;
    const uint8_t* src[kPer];  // the task's row (+ its chunk, aligned rows); null: no copy
    uint32_t dst[kPer];        // its bytes' offset in the tile

    __device__ __forceinline__ MmaWeightCopies(const MmaParams& p, const MmaCta& cta, int tid) {
#pragma unroll
        for (int i = 0; i < kPer; ++i) {
            const int task = tid + i * kThreads, slot = task / kRowChunks, c = task - slot * kRowChunks;
            const int row = cta.slotRow(slot);
            src[i] = task < kTasks && row < cta.sg->rows && !p.skipWeightCopies
                         ? cta.slotW(p, slot) + static_cast<uint64_t>(row) * p.rowBytes + (kAlignedRows ? 16 * c : 0)
                         : nullptr;
            dst[i] = static_cast<uint32_t>(slot * S::kRawLd + 16 * c);
        }
    }
    // K step ks into the tile at shared address `tile`.
    __device__ __forceinline__ void issue(uint32_t tile, int ks) const {
        const uint32_t off = static_cast<uint32_t>(ks) * S::kSpan;
#pragma unroll
        for (int i = 0; i < kPer; ++i) {
            if constexpr (kAlignedRows) {
                cpAsync16If(tile + dst[i], src[i] + off, src[i] != nullptr);
            } else {
                const uintptr_t start = reinterpret_cast<uintptr_t>(src[i]) + off;
                const uintptr_t a0 = start & ~static_cast<uintptr_t>(15);
                const uint32_t c16 = dst[i] % S::kRawLd;  // 16 × the task's chunk
                cpAsync16If(tile + dst[i], reinterpret_cast<const void*>(a0 + c16),
                            src[i] != nullptr && a0 + c16 < start + S::kSpan);
            }
        }
    }
};

// The bulk-copy form of MmaWeightCopies (sm_90; the warpgroup form's default for Q8_0, and for Q6_K
// rows off 16 bytes, where its tensor maps cannot go; HEARTH_CUDA_MMA_BULK=0 turns it off: 1-2%
// faster than cp.async at 64 sequences, docs/benchmarks.md): thread t < kMmaBM copies slot t's
// K-step span (the 16-byte aligned run around it, as the chunks of MmaWeightCopies cover it, so the
// tile is the same) with one cp.async.bulk completing on the stage's mbarrier. The barrier counts
// kMmaBM arrivals a phase, each expecting that thread's bytes (none: a row past the matrix, or
// copies skipped), so rows of any alignment need no total computed in advance.
template <int TT>
struct MmaWeightBulk {
    using S = MmaShape<TT>;
    const uint8_t* row = nullptr;  // the slot's row (null: nothing to copy)
    bool copier;

    __device__ __forceinline__ MmaWeightBulk(const MmaParams& p, const MmaCta& cta, int tid) : copier(tid < kMmaBM) {
        if (!copier) return;
        const int r = cta.slotRow(tid);
        if (r < cta.sg->rows && !p.skipWeightCopies) row = cta.slotW(p, tid) + static_cast<uint64_t>(r) * p.rowBytes;
    }
    // K step ks into the tile at shared address `tile`, completing on `bar`. The stage was last read
    // by plain loads (the generic proxy), before the barrier the caller passed: the proxy fence
    // orders those reads before the bulk copy's writes.
    __device__ __forceinline__ void issue(uint32_t tile, int ks, uint32_t bar) const {
        if (!copier) return;
        uint32_t bytes = 0;
        uintptr_t a0 = 0;
        if (row != nullptr) {
            const uintptr_t start = reinterpret_cast<uintptr_t>(row) + static_cast<uint64_t>(ks) * S::kSpan;
            a0 = start & ~static_cast<uintptr_t>(15);
            bytes = static_cast<uint32_t>(((start + S::kSpan + 15) & ~static_cast<uintptr_t>(15)) - a0);
        }
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        barExpect(bar, bytes);
        if (bytes) bulkCopy(tile + static_cast<uint32_t>(threadIdx.x) * S::kRawLd, reinterpret_cast<const void*>(a0), bytes, bar);
    }
};

// The factors one lane computes for a K step (raw: the tile; facRow: the row of its slot): units
// 2r + hi, r = 0..3, of that slot, as packed (scale, add) of each unit's lower and upper half into
// facs[2u], facs[2u + 1]. Half a warp covers its warp's 16 slots, units 0..3 and 4..7 never mixed in
// one instruction (the k-quants unpack their scales differently for the two).
// Every factor is computed before any is stored: the stores go to the same shared memory as the
// tile, so a store between two units' scale reads kept the compiler from reusing the first unit's
// loads (a k-quant block's d and dmin were read once per unit).
template <int TT>
__device__ __forceinline__ void stageFactors(const uint8_t* slotRaw, int hi, uint32_t* facs) {
    using Q = QType<TT>;
    uint32_t f[8];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int u = 2 * r + hi;
        Unit un;
        Q::scales(slotRaw + ((u * 32) / Q::kElems) * Q::kBytes, ((u * 32) % Q::kElems) / 32, un);
        f[2 * r] = unitFactors<Q::kKind>(un, 0);
        f[2 * r + 1] = unitFactors<Q::kKind>(un, 1);
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int u = 2 * r + hi;
        facs[2 * u] = f[2 * r];
        facs[2 * u + 1] = f[2 * r + 1];
    }
}

// A lane's A fragments of one K step, unit by unit: slots A = 16w + g and B = A + 8 of warp w, their
// rows' raw bytes in the tile `raw`, their factors (stageFactors' layout) at facA and facB. kLd: the
// tile's bytes a row; kSpanAtRowStart: each row's span starts its row (tensor-map copies) instead
// of rawMisalign() bytes into it.
template <int TT, int kLd = MmaShape<TT>::kRawLd, bool kSpanAtRowStart = false>
struct MmaStepFragments {
    using Q = QType<TT>;
    const uint8_t* baseA;
    const uint8_t* baseB;
    const uint32_t* facA;
    const uint32_t* facB;
    int tq;

    __device__ __forceinline__ MmaStepFragments(const MmaParams& p, const uint8_t* raw, int slotA, int rowA, int rowB,
                                                int ks, const uint32_t* facA_, const uint32_t* facB_, int tq_)
        : baseA(raw + slotA * kLd + (kSpanAtRowStart ? 0 : rawMisalign<TT>(p, rowA, ks))),
          baseB(raw + (slotA + 8) * kLd + (kSpanAtRowStart ? 0 : rawMisalign<TT>(p, rowB, ks))),
          facA(facA_), facB(facB_), tq(tq_) {}
    __device__ __forceinline__ void unit(int u, uint32_t (&frag)[2][4]) const {
        constexpr int kPerBlock = Q::kElems / 32;
        const int blk = u / kPerBlock, j = u % kPerBlock;
        unitFragments<TT>(baseA + blk * Q::kBytes, baseB + blk * Q::kBytes, j, tq, facA[2 * u + (tq >> 1)],
                          facB[2 * u + (tq >> 1)], frag);
    }
};

}  // namespace hearth::cuda
