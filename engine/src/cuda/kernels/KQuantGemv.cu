// Matrix-vector product for the k-quants of the common mixes (Q4_K, Q5_K, Q6_K) and up to 8 tokens,
// written for a low instruction count per weight: on the H200 the general kernel (QuantGemv.cu)
// spent ~150 instructions per 32 weights of a row on Q4_K and ~220 on Q6_K, which held it to
// 1.4-2.4 TB/s, bound by instruction issue rather than by memory.
//
// Data movement is the general kernel's: each warp owns two rows (or a gate / up pair) and walks
// them in pieces of 8 blocks (2048 weights), copied to its shared memory with cp.async (bulk copies
// for one- and two-token launches on sm_90), the next piece in flight while the current one is
// decoded. What differs is the decoding:
//  - a lane takes one quarter of one block (64 weights) per row and piece, so its scales are
//    unpacked once for 64 weights, from one 16-byte header load (Q4_K / Q5_K) with fixed shifts;
//  - the activation sums the mins need (and Q6_K's -32 offset) come precomputed from the input
//    preparation (per 16 values, two int16 in one word per unit), not from extra dot products;
//  - Q6_K blocks (210 bytes, 2-byte aligned) are read as aligned words joined by funnel shifts.
// Per token a lane loads its 64 int8 inputs as four 16-byte loads and does 16 dp4a per row; the
// activation scale is one per 256 values (Q8_K), so a quarter's sum is integer until one multiply.
#include <algorithm>
#include <cstdlib>

#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {
namespace {

constexpr int kPieceBlocks = 8;

template <int TT> struct KBlock;
template <> struct KBlock<12> { static constexpr int kBytes = 144; };
template <> struct KBlock<13> { static constexpr int kBytes = 176; };
template <> struct KBlock<14> { static constexpr int kBytes = 210; };

// One row's quarter of a block: 64 weights as unsigned bytes, in the order of the lane's inputs
// (see loadInputs), with its scales. Q4_K keeps its upper unit's nibbles in place (16 times their
// value; quarterDot divides the exact integer sum), which saves a shift per word.
struct Quarter {
    uint32_t q[16];
    int sc[4];  // Q4_K / Q5_K: scale of the lower / upper unit, then their mins; Q6_K: the 4 group scales
    float d, dmin;
};

// Q4_K / Q5_K header (d, dmin, 12 bytes of 6-bit scales and mins): the scales and mins of units
// 2c and 2c + 1.
__device__ __forceinline__ void kScales(const uint4& h, int c, Quarter& o) {
    o.d = h2f(h.x & 0xFFFFu);
    o.dmin = h2f(h.x >> 16);
    const int sh = (c & 1) * 16;
    const uint32_t a = h.y >> sh, b = h.z >> sh, x = h.w >> sh;  // bytes j, j + 4, j + 8 of both units
    uint32_t sc, m;
    if (c < 2) {
        sc = a & 0x3F3Fu;
        m = b & 0x3F3Fu;
    } else {
        sc = (x & 0x0F0Fu) | ((a >> 2) & 0x3030u);
        m = ((x >> 4) & 0x0F0Fu) | ((b >> 2) & 0x3030u);
    }
    o.sc[0] = static_cast<int>(sc & 0xFFu);
    o.sc[1] = static_cast<int>((sc >> 8) & 0xFFu);
    o.sc[2] = static_cast<int>(m & 0xFFu);
    o.sc[3] = static_cast<int>((m >> 8) & 0xFFu);
}

// Word i of a 2-byte aligned run in shared memory, as aligned words joined by a funnel shift.
struct Unaligned {
    const uint32_t* w;
    int sh;
    __device__ Unaligned(const uint32_t* base, int byteOff) : w(base + (byteOff >> 2)), sh((byteOff & 2) * 8) {}
    __device__ uint32_t operator[](int i) const { return __funnelshift_r(w[i], w[i + 1], sh); }
};

template <int TT>
__device__ __forceinline__ void decodeQuarter(const uint8_t* piece, int blk, int c, Quarter& o) {
    constexpr int B = KBlock<TT>::kBytes;
    if constexpr (TT == 12 || TT == 13) {
        const uint8_t* b = piece + blk * B;
        kScales(*reinterpret_cast<const uint4*>(b), c, o);
        const uint4* qp = reinterpret_cast<const uint4*>(b + (TT == 12 ? 16 : 48) + 32 * c);
        const uint4 v0 = qp[0], v1 = qp[1];
        const uint32_t w[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
        if constexpr (TT == 12) {
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                o.q[i] = w[i] & 0x0F0F0F0Fu;
                o.q[8 + i] = w[i] & 0xF0F0F0F0u;
            }
        } else {
            // Fifth bits: bit 2c of qh[l] for the lower unit, bit 2c + 1 for the upper one.
            const uint4* hp = reinterpret_cast<const uint4*>(b + 16);
            const uint4 h0 = hp[0], h1 = hp[1];
            const uint32_t hw[8] = {h0.x, h0.y, h0.z, h0.w, h1.x, h1.y, h1.z, h1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const uint32_t hs = hw[i] >> (2 * c);
                o.q[i] = (w[i] & 0x0F0F0F0Fu) | ((hs << 4) & 0x10101010u);
                o.q[8 + i] = ((w[i] >> 4) & 0x0F0F0F0Fu) | ((hs << 3) & 0x10101010u);
            }
        }
    } else {
        // Q6_K: ql[128], qh[64], scales[16] (int8), d. Quarter c = (half n, l range 16 hl..16 hl + 15)
        // covers elements 128 n + 32 k + l of groups k = 0..3: low nibbles of ql[64 n + l] (k 0) and
        // ql[64 n + 32 + l] (k 1), their high nibbles (k 2, 3), bits 2k of qh[32 n + l] on top.
        const uint32_t* base = reinterpret_cast<const uint32_t*>(piece);
        const int n = c >> 1, hl = c & 1, b0 = blk * B;
        const Unaligned ql0(base, b0 + 64 * n + 16 * hl), ql1(base, b0 + 64 * n + 32 + 16 * hl);
        const Unaligned qh(base, b0 + 128 + 32 * n + 16 * hl), scw(base, b0 + 192 + 8 * n);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const uint32_t l0 = ql0[i], l1 = ql1[i], h = qh[i];
            o.q[i] = (l0 & 0x0F0F0F0Fu) | ((h << 4) & 0x30303030u);
            o.q[4 + i] = (l1 & 0x0F0F0F0Fu) | ((h << 2) & 0x30303030u);
            o.q[8 + i] = ((l0 >> 4) & 0x0F0F0F0Fu) | (h & 0x30303030u);
            o.q[12 + i] = ((l1 >> 4) & 0x0F0F0F0Fu) | ((h >> 2) & 0x30303030u);
        }
        const uint32_t s0 = scw[0] >> (8 * hl), s1 = scw[1] >> (8 * hl);  // scales 8n + hl + 2k
        o.sc[0] = static_cast<int8_t>(s0 & 0xFFu);
        o.sc[1] = static_cast<int8_t>((s0 >> 16) & 0xFFu);
        o.sc[2] = static_cast<int8_t>(s1 & 0xFFu);
        o.sc[3] = static_cast<int8_t>((s1 >> 16) & 0xFFu);
        o.d = h2f(reinterpret_cast<const uint16_t*>(piece)[(b0 + 208) >> 1]);
        o.dmin = 0.f;
    }
}

// The lane's 64 inputs of block `blk` (row pointer `a` at the block), in Quarter's order, and the
// sums its type needs: Q4_K / Q5_K the two units' sums, Q6_K the four groups' sums.
template <int TT>
__device__ __forceinline__ void loadInputs(const int8_t* a, const int* sums, int c, int (&x)[16], int (&s)[4]) {
    const int4* v;
    if constexpr (TT == 14) {
        const int n = c >> 1, hl = c & 1;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int4 g = *reinterpret_cast<const int4*>(a + 128 * n + 32 * k + 16 * hl);
            x[4 * k] = g.x; x[4 * k + 1] = g.y; x[4 * k + 2] = g.z; x[4 * k + 3] = g.w;
        }
        const int4 p = *reinterpret_cast<const int4*>(sums + 4 * n);  // units 4n + k, half hl
        const int w[4] = {p.x, p.y, p.z, p.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) s[k] = hl ? (w[k] >> 16) : static_cast<int>(static_cast<int16_t>(w[k] & 0xFFFF));
    } else {
        v = reinterpret_cast<const int4*>(a + 64 * c);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int4 g = v[k];
            x[4 * k] = g.x; x[4 * k + 1] = g.y; x[4 * k + 2] = g.z; x[4 * k + 3] = g.w;
        }
        const int2 p = *reinterpret_cast<const int2*>(sums + 2 * c);
        s[0] = static_cast<int16_t>(p.x & 0xFFFF) + (p.x >> 16);
        s[1] = static_cast<int16_t>(p.y & 0xFFFF) + (p.y >> 16);
        s[2] = s[3] = 0;
    }
}

// Sum of four unsigned bytes of a times the signed bytes of b, plus c.
__device__ __forceinline__ int dp4aUS(uint32_t a, int b, int c) {
    int d;
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

template <int TT>
__device__ __forceinline__ float quarterDot(const Quarter& w, const int (&x)[16], const int (&s)[4], float da) {
    if constexpr (TT == 14) {
        int isum = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            int dk = 0;
#pragma unroll
            for (int i = 0; i < 4; ++i) dk = __dp4a(static_cast<int>(w.q[4 * k + i]), x[4 * k + i], dk);
            isum += w.sc[k] * (dk - 32 * s[k]);
        }
        return da * (w.d * static_cast<float>(isum));
    } else {
        int lo = 0, hi = 0;
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            lo = __dp4a(static_cast<int>(w.q[i]), x[i], lo);
            hi = TT == 12 ? dp4aUS(w.q[8 + i], x[8 + i], hi) : __dp4a(static_cast<int>(w.q[8 + i]), x[8 + i], hi);
        }
        if constexpr (TT == 12) hi >>= 4;  // exact: every term was a multiple of 16
        const int isum = w.sc[0] * lo + w.sc[1] * hi;
        const int msum = w.sc[2] * s[0] + w.sc[3] * s[1];
        return da * (w.d * static_cast<float>(isum) - w.dmin * static_cast<float>(msum));
    }
}

// A launch may have fewer CTAs than row pairs (launchKQuantGemv sizes it to what is resident at
// once; with several segments, e.g. Q, K and V, pairs count in the one-pair-per-warp layout): each
// warp then takes pairs warp, warp + all warps, ..., and its copies run on across its pairs (the
// pieces ahead are in flight whichever pair they belong to), instead of each CTA starting cold,
// draining and handing its slot to the next one (H200, llama8b Q4_K_M: the Q/K/V launch's 768 CTAs
// ran as 1.16 waves of 660 before it took this path too). The register caps keep each
// instantiation in the occupancy step it had (ptxas: without them the issue side's pointer took the
// 8-token ones from 127 to 164 registers).
//
// Bulk (one- and two-token launches on sm_90, GemvParams::streamWeights 2): lane 0 issues a piece
// as one bulk copy per row completing on the buffer's mbarrier, instead of every lane issuing its
// share of 16-byte cp.async copies with a predicate each (~50 instructions a piece per warp in the
// SASS, a fifth of the loop); the decoding and the arithmetic are the same.
template <int TT, int MaxT, bool Bulk = false>
__global__ void __launch_bounds__(128, MaxT == 1 ? 5 : 4) kquantGemvKernel(const GemvParams p) {
    constexpr int B = KBlock<TT>::kBytes;
    constexpr int kPieceBytes = kPieceBlocks * B;
    constexpr int kSlot = (kPieceBytes + 16 + 15) / 16 * 16;  // + one word read past a Q6_K run
    __shared__ __align__(16) uint8_t sw[kGemvWarps][2][2][kSlot];  // [warp][buffer: item parity][row slot]
    __shared__ __align__(8) uint64_t bars[Bulk ? kGemvWarps : 1][2];  // Bulk: [warp][buffer]

    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int tBase = static_cast<int>(blockIdx.y) * MaxT;
    const int T = min(MaxT, p.T - tBase);
    float acc[2][MaxT];
    gemvZero(acc);

    // Pairs of the one-pair-per-warp layout (several segments: gemvLayoutRows), warp by warp.
    const GemvPairWalk walk(p);
    const int myPairs = walk.count;
    auto rowsOf = [&](int k) { return walk.rows(p, k); };

    const int nb = p.cols / 256, nPieces = (nb + kPieceBlocks - 1) / kPieceBlocks;
    const int nItems = myPairs * nPieces;  // (pair, piece) in order
    const int unitsPerRow = p.cols / 32;
    // Items are issued strictly in order (0, 1, then item + 2 after item), so the issuing side keeps its own pair, piece and source pointer, advanced by a piece per issue; the
    // rows are looked up once per pair.
    const uint32_t swWarp = sharedAddr(&sw[warp][0][0][0]);
    const int lastBytes = (nb - (nPieces - 1) * kPieceBlocks) * B;  // a row's last piece
    // Row 1's bytes sit at a fixed distance from row 0's: the next row (modes 0/1) or the up matrix's
    // row beside the gate matrix's (mode 2).
    const int64_t rowDelta = p.mode == 2 ? p.seg[1].w - p.seg[0].w : p.rowBytes;
    int issueK = 0, issuePc = 0, issueOk = 0;
    const uint8_t* isrc = nullptr;  // row 0 of the next piece to issue
    auto startPair = [&] {
        const GemvRows g = rowsOf(issueK);
        isrc = g.w[0] + g.row[0] * p.rowBytes;
        issueOk = (g.ok[0] ? 1 : 0) | (g.ok[1] ? 2 : 0);
    };
    startPair();
    auto issue = [&](int item) {
        const uint32_t dst = swWarp + static_cast<uint32_t>((item & 1) * 2 * kSlot);
        const int bytes = issuePc + 1 < nPieces ? kPieceBytes : lastBytes;
        if constexpr (Bulk) {
            // Whole 16-byte units: rows are (kquantGemvSupports), and so are pieces.
            if (lane == 0) {
                const uint32_t bar = sharedAddr(&bars[warp][item & 1]);
                barExpect(bar, bytes * ((issueOk & 1) + ((issueOk >> 1) & 1)));
#pragma unroll
                for (int s = 0; s < 2; ++s)
                    if (issueOk & (1 << s)) bulkCopy(dst + s * kSlot, isrc + s * rowDelta, bytes, bar);
            }
        } else {
            constexpr int kVecsPerLane = (kPieceBytes / 16 + 31) / 32;
#pragma unroll
            for (int s = 0; s < 2; ++s)
                warpCopy16At<kVecsPerLane>(dst + s * kSlot + 16 * lane, isrc + s * rowDelta + 16 * lane, bytes >> 4, lane,
                                           issueOk & (1 << s));
            if (bytes & 15) {  // a partial Q6_K piece's 2-byte tail, by plain loads
#pragma unroll
                for (int s = 0; s < 2; ++s) {
                    if (!(issueOk & (1 << s))) continue;
                    uint16_t* d = reinterpret_cast<uint16_t*>(sw[warp][item & 1][s]);
                    const auto* from = reinterpret_cast<const unsigned short*>(isrc + s * rowDelta);
                    for (int i = (bytes >> 4 << 3) + lane; i < (bytes >> 1); i += 32) d[i] = __ldg(from + i);
                }
            }
            cpCommit();
        }
        if (++issuePc < nPieces) {
            isrc += kPieceBytes;
        } else {
            issuePc = 0;
            if (++issueK < myPairs) startPair();
        }
    };
    if constexpr (Bulk) {
        if (lane == 0) {
            barInit(sharedAddr(&bars[warp][0]));
            barInit(sharedAddr(&bars[warp][1]));
            barFenceInit();
        }
        __syncwarp();
    }
    // Weights only before the previous kernel has finished (Launch.cuh).
    if (nItems > 0) issue(0);
    if (nItems > 1) issue(1);
    else if (!Bulk) cpCommit();
    pdlWait();
    pdlTrigger();
    const int pb = lane >> 2, c = lane & 3;  // this lane's block of the piece and quarter of it
    GemvRows r = rowsOf(0);
    int k = 0, pc = 0;
    for (int item = 0; item < nItems; ++item) {
        if constexpr (Bulk) barWait(sharedAddr(&bars[warp][item & 1]), (item >> 1) & 1);
        else cpWaitPending(1);
        __syncwarp();
        const int blk = pc * kPieceBlocks + pb;
        if (blk < nb && !p.measureSkipMath) {
            Quarter w[2];
#pragma unroll
            for (int s = 0; s < 2; ++s)
                if (r.ok[s]) decodeQuarter<TT>(sw[warp][item & 1][s], pb, c, w[s]);
            // Every one of the MaxT tokens, unconditionally (a token past the slice's T recomputes the
            // last one, and the epilogue stores only real ones): with no exit inside the unrolled
            // loop, all tokens' input loads are issued together instead of one token after another
            // (H200, llama8b Q4_K_M: 2 tokens 3.79 ms a step against 2.52 for 1 with the early exit).
#pragma unroll
            for (int t = 0; t < MaxT; ++t) {
                const int64_t tok = min(tBase + t, p.T - 1);
                // Plain loads: the inputs were written by the kernel before this one (Launch.cuh).
                const int64_t unit0 = tok * unitsPerRow + blk * 8;
                int x[16], sums[4];
                loadInputs<TT>(p.actQ + tok * p.cols + blk * 256, reinterpret_cast<const int*>(p.actSum) + unit0, c, x, sums);
                const float da = p.actScale[unit0];
#pragma unroll
                for (int s = 0; s < 2; ++s)
                    if (r.ok[s]) acc[s][t] += quarterDot<TT>(w[s], x, sums, da);
            }
        }
        __syncwarp();  // the buffer is free: refill it with the item after next
        if (item + 2 < nItems) issue(item + 2);
        else if (!Bulk) cpCommit();
        if (++pc == nPieces) {
            gemvEpilogue<MaxT>(p, r, acc, tBase, T);
            gemvZero(acc);
            pc = 0;
            if (++k < myPairs) r = rowsOf(k);
        }
    }
}

template <int TT>
cudaError_t launchType(const GemvParams& p, int grid, cudaStream_t s) {
    // HEARTH_CUDA_GEMV_PERSIST=0 (measuring): a CTA per 4 row pairs, however many that is.
    static const bool persist = [] {
        const char* v = std::getenv("HEARTH_CUDA_GEMV_PERSIST");
        return !v || std::atoi(v) != 0;
    }();
    auto fit = [&](GemvKernel kernel, int slices) {
        if (!persist) return grid;
        const int resident = residentCtas(kernel) / slices;
        return resident > 0 ? std::min(grid, resident) : grid;
    };
    // A kernel per token count up to 2, 4, 8 (it computes all of them), slices of 8 above, or
    // narrower slices for small launches (gemvTokensPerCta).
    const int per = gemvTokensPerCta(p, grid), slices = (p.T + per - 1) / per;
    const bool bulk = p.streamWeights == 2;
    const GemvKernel k = gemvKernelFor(per, bulk ? kquantGemvKernel<TT, 1, true> : kquantGemvKernel<TT, 1>,
                                       bulk ? kquantGemvKernel<TT, 2, true> : kquantGemvKernel<TT, 2>,
                                       kquantGemvKernel<TT, 4>, kquantGemvKernel<TT, kGemvMaxT>);
    return launchKernel(k, dim3(fit(k, slices), slices), 128, 0, s, p);
}

}  // namespace

bool kquantGemvSupports(int type, int cols, int64_t rowBytes) {
    return (type == 12 || type == 13 || type == 14) && cols % 256 == 0 && rowBytes % 16 == 0;
}

cudaError_t launchKQuantGemv(const GemvParams& p, int grid, cudaStream_t s) {
    if (!kquantGemvSupports(p.type, p.cols, p.rowBytes)) return cudaErrorInvalidValue;
    switch (p.type) {
        case 12: return launchType<12>(p, grid, s);
        case 13: return launchType<13>(p, grid, s);
        default: return launchType<14>(p, grid, s);
    }
}

}  // namespace hearth::cuda
