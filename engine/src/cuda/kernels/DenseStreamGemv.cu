// The streamed form of the dense matrix-vector product (GemvParams::streamWeights; one or two
// tokens, F16 / BF16, 16-byte rows; DenseGemv.cu's launcher hands it every launch it takes): the
// arithmetic of denseGemvKernel (DenseGemv.cu), in its order (a lane's vectors lane, lane + 32,
// ... of each row, then the warp sum: bit-identical results), but the weights reach it through
// shared memory. Each warp owns a row pair, as there, and walks its pairs (persistent launch) in
// pieces of kPiece bytes per row, copied into a ring of streamStages slots (cp.async per lane, or
// on sm_90 one bulk copy per row completing on the slot's mbarrier) and kept streamStages - 1
// pieces ahead of the arithmetic, the first ones before the wait for the previous kernel.
//
// The tokens' input rows are staged in shared memory once per CTA: prepared there from the f32
// activations (GemvParams::fusedPrep: RMSNorm and rounding, the preparation kernel's arithmetic)
// or copied from an input prepared by a launch of its own. The streaming alone gained nothing
// (H200, llama8b F16 batch 1: 222.6 against 223.5 tok/s): between two persistent products the
// preparation launch was a gap in which only the next product's first pieces moved (244.3 tok/s
// with the preparations left out, HEARTH_CUDA_SKIP=prep). With each CTA preparing its own input
// the pieces keep moving while it does: 240.4 / 241.0 against 222.9 tok/s for the register-loading
// kernel after separate preparations (80% of 4.3 TB/s against 74%).
#include <algorithm>

#include "cuda/kernels/ActPrepRow.cuh"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/DenseTypes.cuh"
#include "cuda/kernels/GemvCommon.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kPiece = 2048;               // bytes of a row per ring slot
constexpr int kPieceVecs = kPiece / 512;   // 16-byte vectors per lane, row and piece
constexpr int kMaxStreamStages = 8;

// Shared memory of a launch: the inputs (T rows), then the ring [warp][slot][row of the pair][kPiece],
// then the mbarriers [warp][slot].
__host__ __device__ inline int streamInputBytes(int T, int cols) { return (T * cols * 2 + 127) / 128 * 128; }
__host__ __device__ inline int streamSmemBytes(int T, int cols, int stages) {
    return streamInputBytes(T, cols) + kGemvWarps * stages * (2 * kPiece + 8);
}

// Row x (n f32 values, n a multiple of 8) prepared as the preparation kernel prepares it
// (ActPrepRow.cuh: RMSNorm when a.normW is set, then rounding to f16 / bf16) into out (shared
// memory), by the CTA's 4 warps: the same chunks and sums, so bit-identical, but each warp's chunk
// loads issued kBatch at a time instead of one chunk's round trip after another (with
// prepareRow's loop, a 14336-wide row took 14 L2 round trips per warp and batch-1 decode was
// slower than with the separate launch: 213.5 against 218.8 tok/s, llama8b F16).
template <int TT>
__device__ void stagePreparedRow(const ActPrepParams& a, const float* x, int n, uint8_t* out, double* sums) {
    constexpr int kBatch = 4;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nChunks = (n + kActChunk - 1) / kActChunk;
    const bool vec = (a.ldx & 3) == 0 && (reinterpret_cast<uintptr_t>(x) & 15) == 0;
    // This warp's chunks c0, c0 + 4, ... (kBatch of them, those in the row), loads all in flight.
    auto loadBatch = [&](int c0, float (&v)[kBatch][8]) {
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
            if (c0 + kGemvWarps * b < nChunks) loadActChunk(x, n, c0 + kGemvWarps * b, vec, v[b]);
    };
    float scale = 1.f;
    if (a.normW) {
        for (int c0 = warp; c0 < nChunks; c0 += kGemvWarps * kBatch) {
            float v[kBatch][8];
            loadBatch(c0, v);
#pragma unroll
            for (int b = 0; b < kBatch; ++b) {
                if (c0 + kGemvWarps * b >= nChunks) break;
                const double sq = chunkSquares(v[b]);
                if (lane == 0) sums[c0 + kGemvWarps * b] = sq;
            }
        }
        __syncthreads();
        if (warp == 0) chunkSquaresTotal(sums, nChunks);
        __syncthreads();
        scale = rmsScaleOf(sums[kActMaxChunks], n, a.eps);
    }
    for (int c0 = warp; c0 < nChunks; c0 += kGemvWarps * kBatch) {
        float v[kBatch][8];
        loadBatch(c0, v);
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int e0 = (c0 + kGemvWarps * b) * kActChunk + lane * 8;
            if (c0 + kGemvWarps * b >= nChunks || e0 >= n) continue;
            float y[8];
#pragma unroll
            for (int k = 0; k < 8; ++k) y[k] = a.normW ? __fmul_rn(__fmul_rn(v[b][k], scale), a.normW[e0 + k]) : v[b][k];
            uint32_t h[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                if constexpr (TT == 30) {
                    const __nv_bfloat162 q = __floats2bfloat162_rn(y[2 * k], y[2 * k + 1]);
                    h[k] = *reinterpret_cast<const uint32_t*>(&q);
                } else {
                    const __half2 q = __floats2half2_rn(y[2 * k], y[2 * k + 1]);
                    h[k] = *reinterpret_cast<const uint32_t*>(&q);
                }
            }
            *reinterpret_cast<uint4*>(out + 2 * e0) = make_uint4(h[0], h[1], h[2], h[3]);
        }
    }
}

template <int TT, int MaxT, bool Bulk>
__global__ void __launch_bounds__(128, 3) denseStreamGemvKernel(const GemvParams p) {
    using D = Dense<TT>;
    extern __shared__ __align__(128) uint8_t smem[];
    const int S = p.streamStages, T = min(MaxT, p.T);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int nv = p.cols / D::kPerVec;
    const int inBytes = streamInputBytes(T, p.cols);
    const uint32_t ring = sharedAddr(smem + inBytes) + warp * S * 2 * kPiece;
    const uint32_t bars = sharedAddr(smem + inBytes + kGemvWarps * S * 2 * kPiece) + warp * S * 8;
    const int4* ringVec = reinterpret_cast<const int4*>(smem + inBytes + warp * S * 2 * kPiece);

    const GemvPairWalk walk(p);
    const int nPieces = static_cast<int>((p.rowBytes + kPiece - 1) / kPiece);
    const int lastBytes = static_cast<int>(p.rowBytes) - (nPieces - 1) * kPiece;
    const int nItems = walk.count * nPieces;  // (pair, piece), in order
    if constexpr (Bulk) {
        if (lane == 0) {
            for (int i = 0; i < S; ++i) barInit(bars + 8 * i);
            barFenceInit();
        }
        __syncwarp();
    }

    // The issuing side runs S - 1 items ahead, with its own pair, piece and row pointers.
    int issueK = 0, issuePc = 0, issueSlot = 0;
    const uint8_t* src[2] = {nullptr, nullptr};
    bool srcOk[2] = {false, false};
    auto startPair = [&] {
        const GemvRows g = walk.rows(p, issueK);
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            src[s] = g.w[s] + g.row[s] * p.rowBytes;
            srcOk[s] = g.ok[s];
        }
    };
    if (nItems > 0) startPair();
    auto issue = [&] {
        const int bytes = issuePc + 1 < nPieces ? kPiece : lastBytes;
        const uint32_t dst = ring + issueSlot * 2 * kPiece;
        if constexpr (Bulk) {
            if (lane == 0) {
                const uint32_t bar = bars + 8 * issueSlot;
                barExpect(bar, bytes * ((srcOk[0] ? 1 : 0) + (srcOk[1] ? 1 : 0)));
#pragma unroll
                for (int s = 0; s < 2; ++s)
                    if (srcOk[s]) bulkCopy(dst + s * kPiece, src[s] + issuePc * kPiece, bytes, bar);
            }
        } else {
#pragma unroll
            for (int s = 0; s < 2; ++s)
                warpCopy16At<kPieceVecs>(dst + s * kPiece + 16 * lane, src[s] + issuePc * kPiece + 16 * lane, bytes >> 4, lane,
                                         srcOk[s]);
            cpCommit();
        }
        if (++issueSlot == S) issueSlot = 0;
        if (++issuePc == nPieces) {
            issuePc = 0;
            if (++issueK < walk.count) startPair();
        }
    };
    // Weights only before the previous kernel has finished (Launch.cuh). All S - 1 pieces: with
    // fewer ahead of the wait the step was slower (H200, llama8b F16 batch 1, the input prepared
    // separately: 210.6 / 215.9 / 218.8 tok/s with 0 / 1 / 3 pieces).
    for (int i = 0; i < S - 1; ++i) {
        if (i < nItems) issue();
        else if (!Bulk) cpCommit();
    }
    pdlWait();
    pdlTrigger();
    int4* xs = reinterpret_cast<int4*>(smem);
    if (p.fusedPrep) {
        // Each token's row prepared here while the first pieces are in flight; the first CTA also
        // writes it out for later launches. The sums' scratch is warp 0's last ring slot, which no
        // copy fills before the loop below (a static array would cost the 4096-wide launches their
        // third CTA per multiprocessor).
        static_assert((kActMaxChunks + 1) * sizeof(double) <= 2 * kPiece, "the scratch fits a slot");
        double* sums = reinterpret_cast<double*>(smem + inBytes + (S - 1) * 2 * kPiece);
        for (int t = 0; t < T; ++t) {
            const int64_t srcRow = p.prep.rowIndex ? p.prep.rowIndex[t] : t;
            stagePreparedRow<TT>(p.prep, p.prep.x + srcRow * p.prep.ldx, p.cols,
                                 reinterpret_cast<uint8_t*>(xs) + static_cast<int64_t>(t) * p.cols * 2, sums);
        }
        __syncthreads();
        if (blockIdx.x == 0)
            for (int i = threadIdx.x; i < T * nv; i += blockDim.x) static_cast<int4*>(p.prep.outHalf)[i] = xs[i];
    } else {
        // Plain loads: written by the kernel before this one (Launch.cuh).
        const int4* in = reinterpret_cast<const int4*>(p.actDense);
        for (int i = threadIdx.x; i < T * nv; i += blockDim.x) xs[i] = in[i];
        __syncthreads();
    }

    float acc[2][MaxT];
    gemvZero(acc);
    GemvRows r = walk.rows(p, 0);
    int k = 0, pc = 0, slot = 0;
    uint32_t parity = 0;
    for (int item = 0; item < nItems; ++item) {
        if constexpr (Bulk) barWait(bars + 8 * slot, parity);
        else cpWaitPending(S - 2);
        __syncwarp();
        // The slot the previous item used is free: refill it S - 1 items ahead.
        if (item + S - 1 < nItems) issue();
        else if (!Bulk) cpCommit();
        const int4* w0 = ringVec + slot * (2 * kPiece / 16);
        const int base = pc * (kPiece / 16);
#pragma unroll
        for (int j = 0; j < kPieceVecs; ++j) {
            const int i = lane + 32 * j;
            if (base + i >= nv) break;
            float w[2][D::kPerVec];
#pragma unroll
            for (int s = 0; s < 2; ++s) D::unpack(w0[s * (kPiece / 16) + i], w[s]);
#pragma unroll
            for (int t = 0; t < MaxT; ++t) {
                float a[D::kPerVec];
                D::unpack(xs[min(t, T - 1) * nv + base + i], a);
#pragma unroll
                for (int s = 0; s < 2; ++s) {
                    if (!r.ok[s]) continue;
#pragma unroll
                    for (int e = 0; e < D::kPerVec; ++e) acc[s][t] = fmaf(w[s][e], a[e], acc[s][t]);
                }
            }
        }
        __syncwarp();  // the slot is read: the next iteration refills it
        if (++slot == S) {
            slot = 0;
            parity ^= 1;
        }
        if (++pc == nPieces) {
            gemvEpilogue<MaxT>(p, r, acc, 0, T);
            gemvZero(acc);
            pc = 0;
            if (++k < walk.count) r = walk.rows(p, k);
        }
    }
}

using StreamKernel = GemvKernel;
template <int TT>
StreamKernel streamKernelFor(int T, bool bulk) {
    if (bulk) return T == 1 ? denseStreamGemvKernel<TT, 1, true> : denseStreamGemvKernel<TT, 2, true>;
    return T == 1 ? denseStreamGemvKernel<TT, 1, false> : denseStreamGemvKernel<TT, 2, false>;
}

template <int TT>
bool launchType(const GemvParams& p, int grid, cudaStream_t s, cudaError_t& err) {
    const bool bulk = p.streamWeights == 2;
    // Both tokens in every CTA: the narrower slices of small launches (gemvTokensPerCta) give the
    // register-loading kernel more CTAs, which the persistent launch does not need.
    if (!p.streamWeights || p.T > 2 || p.copyWidth < 16 || p.cols % 8 != 0 || p.rowBytes % 16 != 0) return false;
    GemvParams q = p;
    q.streamStages = std::clamp(p.streamStages, 2, bulk ? kMaxStreamStages : 4);
    const StreamKernel k = streamKernelFor<TT>(p.T, bulk);
    const int smem = streamSmemBytes(p.T, p.cols, q.streamStages);
    const int resident = residentCtas(k, smem);
    if (resident <= 0) return false;
    const int ctas = std::min(grid, p.streamMaxCtas > 0 ? std::min(p.streamMaxCtas, resident) : resident);
    err = launchKernel(k, dim3(ctas, 1), 128, smem, s, q);
    return true;
}

}  // namespace

cudaError_t prepareDenseStream(int sharedOptin) {
    for (const bool bulk : {false, true})
        for (const int T : {1, 2})
            for (const StreamKernel k : {streamKernelFor<1>(T, bulk), streamKernelFor<30>(T, bulk)})
                if (const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, sharedOptin);
                    e != cudaSuccess)
                    return e;
    return cudaSuccess;
}

bool launchDenseStreamGemv(const GemvParams& p, int grid, cudaStream_t s, cudaError_t& err) {
    if (p.type == 1) return launchType<1>(p, grid, s, err);
    if (p.type == 30) return launchType<30>(p, grid, s, err);
    return false;
}

}  // namespace hearth::cuda
