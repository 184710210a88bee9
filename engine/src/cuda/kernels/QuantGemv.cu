// Fused dequantize + matrix-vector product for quantized GGUF weights and up to 8 tokens, with
// int8 activations (the CPU's pairing: Q8_0 / Q8_1 / Q8_K) and dp4a integer dot products. More
// tokens are taken in slices of 8 (gridDim.y), each computed exactly as a launch of its own: the
// batch-invariant mode's path for every row count. Launches with few CTAs over small matrices take
// narrower slices (gemvTokensPerCta), down to a token per CTA.
//
// Each warp owns two rows and walks them in pieces of 2048 elements. A piece's bytes are copied
// to the warp's shared memory with asynchronous 16-byte copies (cp.async, sm_80+), the next piece
// in flight while the lanes decode the current one from shared memory, so block layouts of any
// byte alignment are read from global memory as coalesced 16-byte loads and no barrier wider
// than the warp is needed. Activation units are read straight from global memory (they are small
// and every warp of the SM reads the same ones, so they stay in L1). On the H200 this was 1.9 TB/s
// on Q4_K against 1.6 TB/s for a variant that staged activations per CTA behind CTA barriers.
#include <cstdlib>

#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"
#include "cuda/kernels/QuantBlocks.cuh"

namespace hearth::cuda {
namespace {

constexpr int kPiece = 2048;

// n bytes (even) from src, aligned to `width`, into dst (16-byte aligned); 2-byte remainders and
// 2-byte aligned rows are copied synchronously.
__device__ __forceinline__ void copyBytes(uint8_t* dst, const uint8_t* src, int n, int width, int lane) {
    int done = 0;
    if (width >= 16) {
        const int nv = n >> 4;
        for (int i = lane; i < nv; i += 32) cpAsync16(dst + 16 * i, src + 16 * i);
        done = nv << 4;
    } else if (width == 8) {
        const int nv = n >> 3;
        for (int i = lane; i < nv; i += 32) cpAsync8(dst + 8 * i, src + 8 * i);
        done = nv << 3;
    } else if (width == 4) {
        const int nv = n >> 2;
        for (int i = lane; i < nv; i += 32) cpAsync4(dst + 4 * i, src + 4 * i);
        done = nv << 2;
    }
    for (int i = (done >> 1) + lane; i < (n >> 1); i += 32)
        reinterpret_cast<uint16_t*>(dst)[i] = __ldg(reinterpret_cast<const unsigned short*>(src) + i);
}

template <int TT, int MaxT>
__global__ void __launch_bounds__(128) quantGemvKernel(const GemvParams p) {
    using Q = QType<TT>;
    constexpr int kPieceBytes = kPiece / Q::kElems * Q::kBytes;
    __shared__ __align__(16) uint8_t sw[kGemvWarps][2][2][kPieceBytes];  // [warp][buffer][slot]

    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const GemvRows r = gemvRows(p);
    const int tBase = static_cast<int>(blockIdx.y) * MaxT;  // this CTA's slice of the tokens
    const int T = min(MaxT, p.T - tBase);
    float acc[2][MaxT];
    gemvZero(acc);

    const int nPieces = (p.cols + kPiece - 1) / kPiece;
    const int unitsPerRow = p.cols / 32;
    // Decode-sized launches of Q4_0 / Q5_0 / Q8_0 copy a piece as one unrolled run of predicated
    // cp.async to precomputed shared addresses (warpCopy16), not copyBytes' runtime loop with an
    // address conversion per copy (H200, llama8b Q8_0 batch 1: 363.2 / 359.7 against 356.5 tok/s);
    // elsewhere that rewrite grew the kernels' registers past an occupancy step (ptxas), so they
    // keep the loop.
    constexpr bool kUnrolledCopies = MaxT <= 2 && (TT == 2 || TT == 6 || TT == 8);
    constexpr int kVecsPerLane = (kPieceBytes / 16 + 31) / 32;
    auto issue = [&](int pc) {
        const int e0 = pc * kPiece;
        const int pe = min(kPiece, p.cols - e0);
        const int pbytes = pe / Q::kElems * Q::kBytes;
        const int64_t off = static_cast<int64_t>(e0 / Q::kElems) * Q::kBytes;
        if constexpr (kUnrolledCopies) {
#pragma unroll
            for (int s = 0; s < 2; ++s) {
                const uint8_t* src = r.w[s] + r.row[s] * p.rowBytes + off;
                if (p.copyWidth >= 16 && pbytes % 16 == 0)
                    warpCopy16<kVecsPerLane>(sharedAddr(&sw[warp][pc & 1][s][0]), src, pbytes, lane, r.ok[s]);
                else if (r.ok[s])
                    copyBytes(sw[warp][pc & 1][s], src, pbytes, p.copyWidth, lane);
            }
        } else {
#pragma unroll
            for (int s = 0; s < 2; ++s)
                if (r.ok[s]) copyBytes(sw[warp][pc & 1][s], r.w[s] + r.row[s] * p.rowBytes + off, pbytes, p.copyWidth, lane);
        }
        cpCommit();
    };
    // The first two pieces (the whole row for rows up to 4096 elements) before the previous kernel
    // has finished: weights only, which no kernel writes.
    issue(0);
    if (nPieces > 1) issue(1);
    else cpCommit();  // an empty group keeps "all but one" meaning "piece pc is here"
    pdlWait();
    pdlTrigger();
    for (int pc = 0; pc < nPieces; ++pc) {
        cpWaitPending(1);
        __syncwarp();
        const int e0 = pc * kPiece;
        const int units = min(kPiece, p.cols - e0) / 32;
        // A lane takes two consecutive units: for the k-quants the low and high nibbles of one
        // 32-byte chunk, whose bytes and block header it then reads once.
        for (int u0 = 2 * lane; u0 < units; u0 += 64)
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int u = u0 + k;
            if (u >= units) break;
            const int blk = Q::kElems == 32 ? u : (u0 * 32) / Q::kElems;
            const int uin = Q::kElems == 32 ? 0 : ((((u0 * 32) % Q::kElems) / 32) & ~1) | k;
            const int64_t unit = e0 / 32 + u;
            Unit un[2];
#pragma unroll
            for (int s = 0; s < 2; ++s)
                if (r.ok[s]) Q::unit(sw[warp][pc & 1][s] + blk * Q::kBytes, uin, un[s]);
            // All MaxT tokens, with no exit (see KQuantGemv.cu): a token past T recomputes the last.
#pragma unroll
            for (int t = 0; t < MaxT; ++t) {
                const int64_t tok = min(tBase + t, p.T - 1);
                const int4* ap = reinterpret_cast<const int4*>(p.actQ + tok * p.cols) + unit * 2;
                // Plain (coherent) loads: the inputs were written by the kernel before this one,
                // which may still have been running when this one started (Launch.cuh).
                const int4 a0 = ap[0], a1 = ap[1];
                const int64_t si = tok * unitsPerRow + unit;
                const float da = p.actScale[si];
                const float sa = Q::kKind == kLegacyMin ? p.actSum[si] : 0.f;
#pragma unroll
                for (int s = 0; s < 2; ++s)
                    if (r.ok[s]) acc[s][t] += unitDot<Q::kKind>(un[s], a0, a1, da, sa);
            }
        }
        __syncwarp();  // the buffer is free: refill it with the piece after next
        if (pc + 2 < nPieces) issue(pc + 2);
        else cpCommit();
    }
    gemvEpilogue<MaxT>(p, r, acc, tBase, T);
}

template <int TT>
cudaError_t launchType(const GemvParams& p, int grid, cudaStream_t s) {
    const int per = gemvTokensPerCta(p, grid);
    const GemvKernel k = gemvKernelFor(per, quantGemvKernel<TT, 1>, quantGemvKernel<TT, 2>, quantGemvKernel<TT, 4>,
                                       quantGemvKernel<TT, kGemvMaxT>);
    return launchKernel(k, dim3(grid, (p.T + per - 1) / per), 128, 0, s, p);
}

}  // namespace

cudaError_t launchDenseGemv(const GemvParams& p, int grid, cudaStream_t s);

bool gemvSupports(int type) {
    switch (type) {
        case 0: case 1: case 30: case 2: case 3: case 6: case 7: case 8: case 10: case 11: case 12: case 13: case 14:
            return true;
        default:
            return false;
    }
}

cudaError_t launchGemv(const GemvParams& p, int grid, cudaStream_t s) {
    if (p.T < 1 || gemvTokenSlices(p.T) > 65535) return cudaErrorInvalidValue;
    static const bool generic = std::getenv("HEARTH_CUDA_GENERIC_GEMV") != nullptr;
    if (!generic && kquantGemvSupports(p.type, p.cols, p.rowBytes)) return launchKQuantGemv(p, grid, s);
    switch (p.type) {
        case 2: return launchType<2>(p, grid, s);
        case 3: return launchType<3>(p, grid, s);
        case 6: return launchType<6>(p, grid, s);
        case 7: return launchType<7>(p, grid, s);
        case 8: return launchType<8>(p, grid, s);
        case 10: return launchType<10>(p, grid, s);
        case 11: return launchType<11>(p, grid, s);
        case 12: return launchType<12>(p, grid, s);
        case 13: return launchType<13>(p, grid, s);
        case 14: return launchType<14>(p, grid, s);
        case 0: case 1: case 30: return launchDenseGemv(p, grid, s);
        default: return cudaErrorInvalidValue;
    }
}

}  // namespace hearth::cuda
