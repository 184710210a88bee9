// Paged attention over block tables for a ragged batch (decode tokens and prefill chunks alike).
//
// A CTA takes one tile (up to 32 rows = tokens × the query heads of one KV head, so each K/V row is
// read once per GQA group) and one partition of the tile's key blocks. Per 16-position KV block it
// stages K and V in shared memory as f32 (the F16 / Q8_0 / FP8 dequantization happens here, fused),
// computes the masked scores, updates an online softmax per row, and accumulates P·V. With one
// partition the normalized output is written directly; with several, partial results (unnormalized
// output, running max, running sum) are merged by attnCombineKernel.
//
// Numerics as the CPU: Q is rounded to f16 first, scores are dot * 1/sqrt(headDim).
#include <cuda_fp16.h>

#include "cuda/kernels/AttentionMerge.cuh"
#include "cuda/kernels/KvAccess.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kThreads = 128;
constexpr int kMaxAcc = kAttnMaxRows * kAttnMaxHeadDim / kThreads;  // 64

constexpr int kMaxPartitionsInKernel = kAttnMaxPartitions;

size_t smemBytes(int D) {
    return sizeof(float) * (static_cast<size_t>(kAttnMaxRows) * D + 16 * (D + 4) + 16 * D + kAttnMaxRows * 16 +
                            4 * kAttnMaxRows + kAttnMaxRows * kMaxPartitionsInKernel);
}

template <int Kind>
__device__ __forceinline__ void loadTile(const uint8_t* rows, const float* scales, int D, int rowBytes, int valid,
                                         float* dst, int ld) {
    if (Kind == kKvF16 && D % 8 == 0) {
        // 16 rows of D halves are contiguous: 16-byte loads, 8 values each.
        const int nv = 16 * D / 8;
        for (int v = threadIdx.x; v < nv; v += kThreads) {
            const int e = v * 8, i = e / D, d = e - i * D;
            float f[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            if (i < valid) {
                const int4 raw = *reinterpret_cast<const int4*>(rows + static_cast<size_t>(e) * 2);
                const __half2* h = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    const float2 x = __half22float2(h[k]);
                    f[2 * k] = x.x;
                    f[2 * k + 1] = x.y;
                }
            }
#pragma unroll
            for (int k = 0; k < 8; ++k) dst[i * ld + d + k] = f[k];
        }
        return;
    }
    if (Kind == kKvFP8 && D % 16 == 0) {
        const int nv = 16 * D / 16;
        for (int v = threadIdx.x; v < nv; v += kThreads) {
            const int e = v * 16, i = e / D, d = e - i * D;
            if (i < valid) {
                const int4 raw = *reinterpret_cast<const int4*>(rows + e);
                const uint8_t* b = reinterpret_cast<const uint8_t*>(&raw);
                const float sc = scales[i];
#pragma unroll
                for (int k = 0; k < 16; ++k) dst[i * ld + d + k] = fp8ToFloat(b[k]) * sc;
            } else {
#pragma unroll
                for (int k = 0; k < 16; ++k) dst[i * ld + d + k] = 0.f;
            }
        }
        return;
    }
    for (int e = threadIdx.x; e < 16 * D; e += kThreads) {
        const int i = e / D, d = e - i * D;
        float v = 0.f;
        if (i < valid) v = loadKvElem<Kind>(rows + static_cast<size_t>(i) * rowBytes, d, Kind == kKvFP8 ? scales[i] : 0.f);
        dst[i * ld + d] = v;
    }
}

template <int Kind>
__global__ void __launch_bounds__(kThreads) attentionKernel(const AttnParams p) {
    extern __shared__ float sm[];
    pdlWait();
    pdlTrigger();
    const int D = p.D, G = p.G;
    float* Qs = sm;                                  // [32][D]
    float* Ks = Qs + kAttnMaxRows * D;               // [16][D + 4] (16-byte rows, no bank conflicts)
    float* Vs = Ks + 16 * (D + 4);                   // [16][D]
    float* S = Vs + 16 * D;                          // [32][16]
    float* rowM = S + kAttnMaxRows * 16;
    float* rowL = rowM + kAttnMaxRows;
    float* rowC = rowL + kAttnMaxRows;
    int* rowPos = reinterpret_cast<int*>(rowC + kAttnMaxRows);
    float* Wp = reinterpret_cast<float*>(rowPos + kAttnMaxRows);  // [32][partitions] merge weights

    const AttnTile tile = p.tiles[blockIdx.x];
    const AttnSeq sq = p.seqs[tile.seq];
    const int kvh = blockIdx.y, part = blockIdx.z, P = p.partitions;
    const int nRows = tile.numTokens * G;
    const int firstPos = sq.startPos + (tile.tokenBegin - sq.tokenBegin);
    const int64_t qStride = static_cast<int64_t>(p.Hq) * D;

    for (int e = threadIdx.x; e < nRows * D; e += kThreads) {
        const int r = e / D, d = e - r * D;
        const int tok = tile.tokenBegin + r / G, head = kvh * G + r % G;
        Qs[r * D + d] = __half2float(__float2half_rn(p.q[tok * qStride + static_cast<int64_t>(head) * D + d]));
    }
    if (threadIdx.x < kAttnMaxRows) {
        const int r = threadIdx.x;
        rowPos[r] = r < nRows ? firstPos + r / G : -1;
        rowM[r] = -INFINITY;
        rowL[r] = 0.f;
        rowC[r] = 1.f;
    }
    const int keyEnd = firstPos + tile.numTokens;  // keys the tile's last token sees
    const int nBlk = (keyEnd + 15) / 16;
    // Fixed-size partitions of blocksPerPartition blocks (so a sequence's result does not depend on
    // the batch it is in), growing only when the context needs more than gridDim.z of them. The
    // batch-invariant mode fixes the partition size for the engine's whole context instead, so a
    // row's blocks are grouped the same way whatever the tile's last position (P covers them).
    const int bpp = max(max(p.blocksPerPartition, 1), (nBlk + P - 1) / P);
    const int nParts = (nBlk + bpp - 1) / bpp;  // partitions with work for this tile (<= P)
    if (P > 1 && part >= nParts) return;        // the grid is sized for the longest tile
    const int b0 = part * bpp, b1 = min(nBlk, b0 + bpp);
    const int nAcc = (nRows * D + kThreads - 1) / kThreads;
    float acc[kMaxAcc];
#pragma unroll
    for (int k = 0; k < kMaxAcc; ++k) acc[k] = 0.f;
    __syncthreads();

    for (int b = b0; b < b1; ++b) {
        const int phys = p.blockTables[sq.blockBegin + b];
        const uint8_t* blk = p.pool + static_cast<uint64_t>(phys) * p.blockBytes;
        const int valid = min(16, keyEnd - b * 16);
        const size_t headRows = static_cast<size_t>(kvh) * 16;
        loadTile<Kind>(blk + p.kOff + headRows * p.rowBytes, reinterpret_cast<const float*>(blk + p.kScaleOff) + headRows, D,
                       p.rowBytes, valid, Ks, D + 4);
        loadTile<Kind>(blk + p.vOff + headRows * p.rowBytes, reinterpret_cast<const float*>(blk + p.vScaleOff) + headRows, D,
                       p.rowBytes, valid, Vs, D);
        __syncthreads();
        for (int idx = threadIdx.x; idx < nRows * 16; idx += kThreads) {
            const int r = idx >> 4, i = idx & 15, j = b * 16 + i;
            float s = -INFINITY;
            if (i < valid && j <= rowPos[r]) {
                const float* qr = Qs + r * D;
                const float* kr = Ks + i * (D + 4);
                float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
                if ((D & 3) == 0) {
                    for (int d = 0; d < D; d += 4) {
                        const float4 qv = *reinterpret_cast<const float4*>(qr + d);
                        const float4 kv = *reinterpret_cast<const float4*>(kr + d);
                        a0 = fmaf(qv.x, kv.x, a0);
                        a1 = fmaf(qv.y, kv.y, a1);
                        a2 = fmaf(qv.z, kv.z, a2);
                        a3 = fmaf(qv.w, kv.w, a3);
                    }
                } else {
                    for (int d = 0; d < D; ++d) a0 = fmaf(qr[d], kr[d], a0);
                }
                s = ((a0 + a1) + (a2 + a3)) * p.scale;
            }
            S[r * 16 + i] = s;
        }
        __syncthreads();
        if (threadIdx.x < nRows) {
            const int r = threadIdx.x;
            float* sr = S + r * 16;
            float mt = -INFINITY;
#pragma unroll
            for (int i = 0; i < 16; ++i) mt = fmaxf(mt, sr[i]);
            const float mOld = rowM[r], mNew = fmaxf(mOld, mt);
            float corr = 1.f, l = rowL[r];
            if (mNew == -INFINITY) {
#pragma unroll
                for (int i = 0; i < 16; ++i) sr[i] = 0.f;
            } else {
                corr = mOld == -INFINITY ? 0.f : expf(mOld - mNew);
                l *= corr;
#pragma unroll
                for (int i = 0; i < 16; ++i) {
                    const float e = sr[i] == -INFINITY ? 0.f : expf(sr[i] - mNew);
                    sr[i] = e;
                    l += e;
                }
            }
            rowM[r] = mNew;
            rowL[r] = l;
            rowC[r] = corr;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kMaxAcc; ++k) {
            if (k >= nAcc) break;
            const int e = threadIdx.x + k * kThreads;
            const int r = e / D, d = e - r * D;
            if (r >= nRows) continue;
            float a = acc[k] * rowC[r];
            const float* pr = S + r * 16;
#pragma unroll
            for (int i = 0; i < 16; ++i) a = fmaf(pr[i], Vs[i * D + d], a);
            acc[k] = a;
        }
        __syncthreads();
    }

    if (P == 1 || nParts == 1) {  // one partition: its result is final (bit-identical to a merge of one)
#pragma unroll
        for (int k = 0; k < kMaxAcc; ++k) {
            if (k >= nAcc) break;
            const int e = threadIdx.x + k * kThreads;
            const int r = e / D, d = e - r * D;
            if (r >= nRows) continue;
            const int tok = tile.tokenBegin + r / G, head = kvh * G + r % G;
            const float l = rowL[r];
            p.out[tok * qStride + static_cast<int64_t>(head) * D + d] = l > 0.f ? acc[k] / l : 0.f;
        }
        return;
    }
    // Partial result of this partition, then the last CTA of the tile merges them all.
#pragma unroll
    for (int k = 0; k < kMaxAcc; ++k) {
        if (k >= nAcc) break;
        const int e = threadIdx.x + k * kThreads;
        const int r = e / D, d = e - r * D;
        if (r < nRows) p.partO[(partitionRow(p, tile, kvh, r) + part) * D + d] = acc[k];
    }
    if (threadIdx.x < nRows) {
        const int64_t row = partitionRow(p, tile, kvh, threadIdx.x);
        p.partML[(row + part) * 2] = rowM[threadIdx.x];
        p.partML[(row + part) * 2 + 1] = rowL[threadIdx.x];
    }
    __shared__ int isLast;
    mergeAttentionPartitions<kThreads>(p, tile, kvh, nRows, nParts, Wp, rowL, &isLast);
}

template <int Kind>
cudaError_t launchKind(const AttnParams& p, int nTiles, cudaStream_t s) {
    const dim3 grid(nTiles, p.Hkv, p.partitions);
    return launchKernel(attentionKernel<Kind>, grid, kThreads, smemBytes(p.D), s, p);
}

}  // namespace

cudaError_t prepareAttention() {
    // Head sizes above 128 need more than the default 48 KB of dynamic shared memory (per device).
    const int bytes = static_cast<int>(smemBytes(kAttnMaxHeadDim));
    for (auto fn : {attentionKernel<kKvF16>, attentionKernel<kKvQ8_0>, attentionKernel<kKvFP8>})
        if (const cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); e != cudaSuccess)
            return e;
    return cudaSuccess;
}

cudaError_t launchAttention(const AttnParams& p, int nTiles, cudaStream_t s) {
    if (nTiles <= 0) return cudaSuccess;
    if (p.D > kAttnMaxHeadDim || p.tileRows > kAttnMaxRows || p.partitions < 1 || p.partitions > kMaxPartitionsInKernel)
        return cudaErrorInvalidValue;
    if (p.kvKind == kKvF16) return launchKind<kKvF16>(p, nTiles, s);
    if (p.kvKind == kKvQ8_0) return launchKind<kKvQ8_0>(p, nTiles, s);
    return launchKind<kKvFP8>(p, nTiles, s);
}

}  // namespace hearth::cuda
