// Paged attention for decode-like steps (a few tokens per sequence, the keys split into
// partitions): no CTA barrier inside the key loop.
//
// A CTA (4 warps) takes one tile (up to 32 rows = tokens × the query heads of one KV head) and one
// partition of its key blocks; warp w takes the partition's blocks w, w + 4, ... For each group of
// four rows a warp computes a block's 16 scores (lane: key lane % 16, one half of the head's dims),
// updates an online softmax per row and accumulates P·V (lane: D/32 consecutive dims). The four
// warps' results are combined in warp order, then written (one partition) or merged with the other
// partitions (AttentionMerge.cuh). A row's arithmetic depends only on its own keys and the fixed
// partition size, never on the other rows of the step, so a sequence decodes bit-identically alone,
// batched, or next to its speculative drafts.
//
// Numerics as the CPU: Q is rounded to f16 first, scores are dot * 1/sqrt(headDim).
#include <cuda_fp16.h>

#include <type_traits>

#include "cuda/kernels/AttentionMerge.cuh"
#include "cuda/kernels/KvAccess.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kWarps = 4, kThreads = kWarps * 32, kGroup = 4;  // rows per group

// N consecutive elements of a KV row starting at d (a multiple of N), as floats.
template <int Kind, int N>
__device__ __forceinline__ void loadKv(const uint8_t* row, int d, float scale, float (&out)[N]) {
    if constexpr (Kind == kKvF16) {
        static_assert(N == 2 || N == 4 || N == 8, "f16 loads of 4, 8 or 16 bytes");
        using Vec = std::conditional_t<N == 8, int4, std::conditional_t<N == 4, int2, int>>;
        const Vec raw = *reinterpret_cast<const Vec*>(reinterpret_cast<const __half*>(row) + d);
        const __half2* v = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
        for (int i = 0; i < N / 2; ++i) {
            const float2 f = __half22float2(v[i]);
            out[2 * i] = f.x;
            out[2 * i + 1] = f.y;
        }
    } else if constexpr (Kind == kKvFP8) {
        uint8_t b[N];
        if constexpr (N == 8) *reinterpret_cast<uint2*>(b) = *reinterpret_cast<const uint2*>(row + d);
        else if constexpr (N == 4) *reinterpret_cast<uint32_t*>(b) = *reinterpret_cast<const uint32_t*>(row + d);
        else *reinterpret_cast<uint16_t*>(b) = *reinterpret_cast<const uint16_t*>(row + d);
#pragma unroll
        for (int i = 0; i < N; ++i) out[i] = fp8ToFloat(b[i]) * scale;
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) out[i] = loadKvElem<Kind>(row, d + i, 0.f);
    }
}

template <int Kind, int D>
__global__ void __launch_bounds__(kThreads) attentionDecodeKernel(const AttnParams p) {
    constexpr int kDpl = D / 32;   // V dims per lane
    constexpr int kHalf = D / 2;   // K dims per lane
    __shared__ __align__(16) float Qs[kAttnMaxRows][D];
    __shared__ __align__(16) float wO[kWarps][kGroup][D];  // the warps' outputs of a row group
    __shared__ float wM[kWarps][kGroup], wL[kWarps][kGroup];
    __shared__ float mergeW[kAttnMaxRows * kAttnMaxPartitions], mergeL[kAttnMaxRows];
    __shared__ int mergeFlag;

    // The step's metadata and block tables come from the host before the step starts, so they
    // are read before the dependency wait, and the partition's KV rows are prefetched into L2:
    // only the rows the previous kernel stores are still changing there, and L2 is where its
    // writes land, so the prefetch never leaves a stale copy behind (no L1 prefetch).
    const AttnTile tile = p.tiles[blockIdx.x];
    const AttnSeq sq = p.seqs[tile.seq];
    const int kvh = blockIdx.y, part = blockIdx.z, P = p.partitions, G = p.G;
    const int nRows = tile.numTokens * G;
    const int firstPos = sq.startPos + (tile.tokenBegin - sq.tokenBegin);
    const int keyEnd = firstPos + tile.numTokens;  // keys the tile's last token sees
    const int nBlk = (keyEnd + 15) / 16;
    const int bpp = max(max(p.blocksPerPartition, 1), (nBlk + P - 1) / P);
    const int nParts = (nBlk + bpp - 1) / bpp;
    if (nRows <= 0 || part >= nParts) return;
    const int b0 = part * bpp, b1 = min(nBlk, b0 + bpp);
    const int64_t qStride = static_cast<int64_t>(p.Hq) * D;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    {
        // A lane per 16 KV rows' worth of 128-byte lines: K and V of this head in each block.
        const int lines = (16 * p.rowBytes + 127) / 128;
        for (int i = tid; i < (b1 - b0) * 2 * lines; i += kThreads) {
            const int b = b0 + i / (2 * lines), rest = i % (2 * lines), kv = rest / lines, line = rest % lines;
            const uint8_t* blk = p.pool + static_cast<uint64_t>(p.blockTables[sq.blockBegin + b]) * p.blockBytes;
            const uint8_t* a = blk + (kv ? p.vOff : p.kOff) + static_cast<size_t>(kvh) * 16 * p.rowBytes + line * 128;
            asm volatile("prefetch.global.L2 [%0];" ::"l"(a));
        }
    }
    pdlWait();
    pdlTrigger();

#pragma unroll 4
    for (int e = tid; e < nRows * D; e += kThreads) {
        const int r = e / D, d = e - r * D;
        const int tok = tile.tokenBegin + r / G, head = kvh * G + r % G;
        Qs[r][d] = __half2float(__float2half_rn(p.q[tok * qStride + static_cast<int64_t>(head) * D + d]));
    }
    __syncthreads();

    const int ki = lane & 15, kd = (lane >> 4) * kHalf;  // this lane's key and first K dim
    const size_t headRows = static_cast<size_t>(kvh) * 16;
    for (int rg = 0; rg < nRows; rg += kGroup) {
        float m[kGroup], l[kGroup], acc[kGroup][kDpl];
        int pos[kGroup];
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            m[j] = -INFINITY;
            l[j] = 0.f;
            pos[j] = rg + j < nRows ? firstPos + (rg + j) / G : -1;
#pragma unroll
            for (int t = 0; t < kDpl; ++t) acc[j][t] = 0.f;
        }
        for (int b = b0 + warp; b < b1; b += kWarps) {
            const uint8_t* blk = p.pool + static_cast<uint64_t>(p.blockTables[sq.blockBegin + b]) * p.blockBytes;
            const float* kScales = reinterpret_cast<const float*>(blk + p.kScaleOff) + headRows;
            const float* vScales = reinterpret_cast<const float*>(blk + p.vScaleOff) + headRows;
            const int valid = min(16, keyEnd - b * 16);
            // The block's V rows first: their loads are in flight while the scores are computed.
            float vv[16][kDpl];
#pragma unroll
            for (int i = 0; i < 16; ++i) {
                if (i < valid)
                    loadKv<Kind, kDpl>(blk + p.vOff + (headRows + i) * p.rowBytes, lane * kDpl, Kind == kKvFP8 ? vScales[i] : 0.f, vv[i]);
            }
            float s[kGroup] = {};
            if (ki < valid) {
                const uint8_t* krow = blk + p.kOff + (headRows + ki) * p.rowBytes;
                const float ks = Kind == kKvFP8 ? kScales[ki] : 0.f;
#pragma unroll
                for (int c = 0; c < kHalf; c += 8) {
                    float kv[8];
                    loadKv<Kind, 8>(krow, kd + c, ks, kv);
#pragma unroll
                    for (int j = 0; j < kGroup; ++j) {
                        const float4 q0 = *reinterpret_cast<const float4*>(&Qs[min(rg + j, kAttnMaxRows - 1)][kd + c]);
                        const float4 q1 = *reinterpret_cast<const float4*>(&Qs[min(rg + j, kAttnMaxRows - 1)][kd + c + 4]);
                        s[j] = fmaf(q0.x, kv[0], s[j]);
                        s[j] = fmaf(q0.y, kv[1], s[j]);
                        s[j] = fmaf(q0.z, kv[2], s[j]);
                        s[j] = fmaf(q0.w, kv[3], s[j]);
                        s[j] = fmaf(q1.x, kv[4], s[j]);
                        s[j] = fmaf(q1.y, kv[5], s[j]);
                        s[j] = fmaf(q1.z, kv[6], s[j]);
                        s[j] = fmaf(q1.w, kv[7], s[j]);
                    }
                }
            }
            float pr[kGroup];
#pragma unroll
            for (int j = 0; j < kGroup; ++j) {
                // Lower half of the dims + upper half, in that order on every lane.
                const float other = __shfl_xor_sync(0xFFFFFFFFu, s[j], 16);
                const float dot = lane < 16 ? s[j] + other : other + s[j];
                const float v = ki < valid && b * 16 + ki <= pos[j] ? dot * p.scale : -INFINITY;
                float mx = v;
#pragma unroll
                for (int o = 8; o > 0; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xFFFFFFFFu, mx, o));
                const float mNew = fmaxf(m[j], mx);
                const float corr = mNew == -INFINITY ? 1.f : (m[j] == -INFINITY ? 0.f : expf(m[j] - mNew));
                pr[j] = v == -INFINITY ? 0.f : expf(v - mNew);
                float sum = pr[j];
#pragma unroll
                for (int o = 8; o > 0; o >>= 1) sum += __shfl_xor_sync(0xFFFFFFFFu, sum, o);
                l[j] = l[j] * corr + sum;
                m[j] = mNew;
#pragma unroll
                for (int t = 0; t < kDpl; ++t) acc[j][t] *= corr;
            }
            // P·V over the block's valid keys, in key order.
#pragma unroll
            for (int i = 0; i < 16; ++i) {
                if (i >= valid) break;
#pragma unroll
                for (int j = 0; j < kGroup; ++j) {
                    const float pi = __shfl_sync(0xFFFFFFFFu, pr[j], i);
#pragma unroll
                    for (int t = 0; t < kDpl; ++t) acc[j][t] = fmaf(pi, vv[i][t], acc[j][t]);
                }
            }
        }
        // The four warps' results, combined in warp order.
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            if (lane == 0) {
                wM[warp][j] = m[j];
                wL[warp][j] = l[j];
            }
#pragma unroll
            for (int t = 0; t < kDpl; ++t) wO[warp][j][lane * kDpl + t] = acc[j][t];
        }
        __syncthreads();
        for (int e = tid; e < kGroup * D; e += kThreads) {
            const int j = e / D, d = e - j * D, r = rg + j;
            if (r >= nRows) continue;
            float M = -INFINITY;
#pragma unroll
            for (int w = 0; w < kWarps; ++w) M = fmaxf(M, wM[w][j]);
            float O = 0.f, L = 0.f;
#pragma unroll
            for (int w = 0; w < kWarps; ++w) {
                const float f = wM[w][j] == -INFINITY ? 0.f : expf(wM[w][j] - M);
                O += f * wO[w][j][d];
                L += f * wL[w][j];
            }
            if (nParts == 1) {
                const int tok = tile.tokenBegin + r / G, head = kvh * G + r % G;
                p.out[tok * qStride + static_cast<int64_t>(head) * D + d] = L > 0.f ? O / L : 0.f;
            } else {
                const int64_t row = partitionRow(p, tile, kvh, r) + part;
                p.partO[row * D + d] = O;
                if (d == 0) {
                    p.partML[row * 2] = M;
                    p.partML[row * 2 + 1] = L;
                }
            }
        }
        __syncthreads();  // wO / wM / wL are reused by the next row group
    }
    if (nParts > 1) mergeAttentionPartitions<kThreads>(p, tile, kvh, nRows, nParts, mergeW, mergeL, &mergeFlag);
}

template <int Kind>
cudaError_t launchKind(const AttnParams& p, int nTiles, cudaStream_t s) {
    const dim3 grid(nTiles, p.Hkv, p.partitions);
    if (p.D == 64) return launchKernel(attentionDecodeKernel<Kind, 64>, grid, kThreads, 0, s, p);
    return launchKernel(attentionDecodeKernel<Kind, 128>, grid, kThreads, 0, s, p);
}

}  // namespace

bool attentionDecodeSupports(int D) { return D == 64 || D == 128; }

cudaError_t launchAttentionDecode(const AttnParams& p, int nTiles, cudaStream_t s) {
    if (nTiles <= 0) return cudaSuccess;
    if (!attentionDecodeSupports(p.D) || p.tileRows > kAttnMaxRows || p.partitions < 1 || p.partitions > kAttnMaxPartitions)
        return cudaErrorInvalidValue;
    if (p.kvKind == kKvF16) return launchKind<kKvF16>(p, nTiles, s);
    if (p.kvKind == kKvQ8_0) return launchKind<kKvQ8_0>(p, nTiles, s);
    return launchKind<kKvFP8>(p, nTiles, s);
}

}  // namespace hearth::cuda
