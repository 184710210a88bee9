// Paged attention on tensor cores (F16 KV cache, head size 64 or 128): flash attention over the
// same tiles as attentionKernel (up to 32 rows = tokens × the query heads of one KV head), for
// prefill-sized steps (one partition per tile) and decode-like ones (the keys split into
// partitions, merged as the other kernels do: AttentionMerge.cuh). A row's arithmetic depends only
// on its own keys and the partition size, so a sequence decodes bit-identically alone or batched.
//
// A CTA (2 warps, 16 rows each) walks the tile's keys in chunks of 32 (two KV blocks), copied to
// shared memory with cp.async one chunk ahead. FP8 KV (E4M3, a scale per row): the raw rows and
// their scales are copied the same way and turned into f16 tiles in shared memory each chunk (E4M3
// values are exact in f16); a key's scale multiplies its scores after Q·Kᵀ and its probabilities
// before P·V, so the tensor cores see the stored values. S = Q·Kᵀ with mma.sync m16n8k16 (f16 inputs: Q
// rounded to f16 as the CPU does, K as stored; f32 sums), masked causally, scaled by 1/sqrt(D); an
// online softmax in f32 per row (expf, as the CPU); then O += P·V where P is split into an f16 high
// part and an f16 remainder (two MMAs), so the probabilities keep ~22 bits instead of f16's 11.
// O is normalized by the row sum at the end and written as f32 (or, with partitions, written
// unnormalized with the row's max and sum for the merge).
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdlib>

#include "cuda/KernelParams.h"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/AttentionMerge.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kKeys = 32;  // keys per chunk: two KV blocks

__device__ __forceinline__ void ldmatrixX4(uint32_t (&r)[4], const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(sharedAddr(p)));
}
__device__ __forceinline__ void ldmatrixX4Trans(uint32_t (&r)[4], const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(sharedAddr(p)));
}
// Two E4M3 values (low byte first) as an f16 pair, exactly.
__device__ __forceinline__ uint32_t fp8x2ToHalf2(uint16_t v) {
    const __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(v), __NV_E4M3);
    return static_cast<uint32_t>(h.x) | (static_cast<uint32_t>(h.y) << 16);
}
// (a, b) as an f16 pair plus the f16 pair of what that rounding left out.
__device__ __forceinline__ void splitHalf2(float a, float b, uint32_t& hi, uint32_t& lo) {
    const __half2 h = __floats2half2_rn(a, b);
    const float2 f = __half22float2(h);
    const __half2 l = __floats2half2_rn(a - f.x, b - f.y);
    hi = *reinterpret_cast<const uint32_t*>(&h);
    lo = *reinterpret_cast<const uint32_t*>(&l);
}

// kSplit: four warps, two per 16-row group, each taking one half (one KV block) of every chunk's
// keys, their online softmax states merged at the end (half 0 first). A row's arithmetic is the same
// whatever the tile's size, and a warp's serial chain per chunk is half as long: at batch 1 the
// kernel is bound by that chain (two warps on an SM, one of them idle), not by memory.
//
// kCapped: the same kernel held to 128 registers (ptxas: 24 bytes spilled for F16, 56 for FP8 at
// head size 128), so four CTAs fit a multiprocessor instead of three. The launch takes it only where
// its CTAs would otherwise run as more than one wave (AttnParams::cappedAbove; 64 sequences × 8 KV
// heads: 512 CTAs on an H100's 396 places): there +0.5-0.9% aggregate decode for llama8b Q4_K_M and
// +2.9% with FP8 KV, where for every launch one-wave launches lost 4% (32 sequences) and 1.8%
// (batch 1) to the spills (H100, docs/benchmarks.md). Same sums either way.
template <int D, bool kSplit, bool kFp8, bool kCapped = false>
__global__ void __launch_bounds__(kSplit ? 128 : 64, kCapped ? 4 : 0) attentionMmaKernel(const AttnParams p) {
    constexpr int kThreads = kSplit ? 128 : 64;
    constexpr int kNT = kSplit ? 2 : kKeys / 8;  // 8-key tiles of a chunk per warp
    constexpr int kLd = D + 8;  // halves per shared row: rows 16 bytes apart in banks, conflict-free ldmatrix
    __shared__ __align__(16) __half Qs[kAttnMaxRows][kLd];
    // The f16 K and V tiles ([kKeys][kLd] each): F16 KV copies into two stages of each (K stages,
    // then V stages); FP8 KV has one of each, converted every chunk from two stages of raw rows
    // ([K, V][stage][key][D] bytes) and their scales ([K, V][stage][key] floats), which follow.
    // (Two f16 stages and the raw ones would pass the 48 KB of static shared memory.)
    constexpr int kTile = kKeys * kLd;
    constexpr int kF16Tiles = kFp8 ? 2 : 4, kRawBytes = kFp8 ? 4 * kKeys * D : 0, kScaleBytes = kFp8 ? 4 * kKeys * 4 : 0;
    __shared__ __align__(16) uint8_t kvSmem[kF16Tiles * kTile * 2 + kRawBytes + kScaleBytes];
    __half* const tiles = reinterpret_cast<__half*>(kvSmem);
    auto kTileAt = [&](int st) { return tiles + (kFp8 ? 0 : st) * kTile; };
    auto vTileAt = [&](int st) { return tiles + (kFp8 ? 1 : 2 + st) * kTile; };
    uint8_t* const raw = kvSmem + kF16Tiles * kTile * 2;
    float* const rawScale = reinterpret_cast<float*>(raw + kRawBytes);
    __shared__ float mergeL[kAttnMaxRows];
    __shared__ int mergeFlag;
    const int tid = threadIdx.x, lane = tid & 31, g = lane >> 2, tq = lane & 3;
    const int warp = kSplit ? tid >> 6 : tid >> 5;          // this warp's 16-row group
    const int keyOff = kSplit ? ((tid >> 5) & 1) * 16 : 0;  // and its keys in each chunk
    // Metadata and block tables come from the host before the step: read before the wait.
    const AttnTile tile = p.tiles[blockIdx.x];
    const AttnSeq sq = p.seqs[tile.seq];
    const int kvh = blockIdx.y, G = p.G, P = p.partitions, part = blockIdx.z;
    const int nRows = tile.numTokens * G;
    const int firstPos = sq.startPos + (tile.tokenBegin - sq.tokenBegin);
    const int keyEnd = firstPos + tile.numTokens;  // keys the tile's last token sees
    const int nBlk = (keyEnd + 15) / 16;
    const int bpp = max(max(p.blocksPerPartition, 1), (nBlk + P - 1) / P);
    const int nParts = (nBlk + bpp - 1) / bpp;
    if (nRows <= 0 || part >= nParts) return;
    const int kBase = part * bpp * 16, kEnd = min(keyEnd, (part + 1) * bpp * 16);  // this partition's keys
    const int nChunks = (kEnd - kBase + kKeys - 1) / kKeys;
    const int64_t qStride = static_cast<int64_t>(p.Hq) * D;

    // Copies chunk c's K and V rows into stage st and commits them as one group. A thread always
    // copies the same 16-byte piece of its rows, keys kRowStep apart: a chunk's two KV blocks are
    // looked up once each.
    constexpr int kVecs = D / (kFp8 ? 16 : 8);  // 16-byte pieces of a row
    constexpr int kRowStep = kThreads / kVecs;
    static_assert(kThreads % kVecs == 0 && kKeys % kRowStep == 0, "a thread copies whole keys of every chunk");
    const int myVec = tid % kVecs, myKey = tid / kVecs;
    auto issue = [&](int c, int st) {
        const int chunkBase = kBase + c * kKeys;  // a multiple of 16: the chunk is KV blocks b0, b0 + 1
        const uint8_t* blk[2];
#pragma unroll
        for (int h = 0; h < 2; ++h)
            blk[h] = chunkBase + 16 * h < kEnd
                         ? p.pool + static_cast<uint64_t>(p.blockTables[sq.blockBegin + (chunkBase >> 4) + h]) * p.blockBytes
                         : nullptr;
#pragma unroll
        for (int j = 0; j < kKeys / kRowStep; ++j) {
            const int key = myKey + j * kRowStep, abs = chunkBase + key;
            const uint8_t* b = key < 16 ? blk[0] : blk[1];
            const int rowIdx = kvh * 16 + (abs & 15);
            const uint64_t rowOff = static_cast<uint64_t>(rowIdx) * p.rowBytes + myVec * 16;
#pragma unroll
            for (int kv = 0; kv < 2; ++kv) {
                void* dst = kFp8 ? static_cast<void*>(raw + ((kv * 2 + st) * kKeys + key) * D + myVec * 16)
                                 : static_cast<void*>((kv ? vTileAt(st) : kTileAt(st)) + key * kLd + myVec * 8);
                if (abs < kEnd) cpAsync16(dst, b + (kv ? p.vOff : p.kOff) + rowOff);
                else *reinterpret_cast<int4*>(dst) = make_int4(0, 0, 0, 0);  // past the keys: zeros (no NaN from stale rows)
                if (kFp8 && myVec == 0) {
                    float* sdst = rawScale + (kv * 2 + st) * kKeys + key;
                    if (abs < kEnd) cpAsync4(sdst, reinterpret_cast<const float*>(b + (kv ? p.vScaleOff : p.kScaleOff)) + rowIdx);
                    else *sdst = 0.f;
                }
            }
        }
        cpCommit();
    };
    // Keys older than the sequence's first token in this step were stored by earlier steps: the
    // first chunk is in flight before the wait when it has only those (decode: all partitions but
    // the last). A prompt's tiles after the first also see keys of its earlier tiles, which the
    // kernel before this one is still storing: those wait (copying every chunk before the tile's
    // first token early was a race; CudaBatch.PromptsNeverSeeStaleKeys). (Having both chunks of a
    // two-chunk partition in flight before the wait, the step's own keys after it, measured the same
    // at batch 1 on the H200: 403.6 vs 402.8 tok/s, llama8b Q4_K_M.)
    const bool early = kBase + kKeys <= sq.startPos;
    if (early) issue(0, 0);
    pdlWait();
    pdlTrigger();
    if (!early) issue(0, 0);

    // The rows of the warps that compute (zeros past the tile's rows), four loads in flight.
    const int rowsUsed = (nRows + 15) & ~15;
#pragma unroll 4
    for (int e = tid; e < rowsUsed * D / 2; e += kThreads) {
        const int r = e / (D / 2), d = 2 * (e - r * (D / 2));
        float2 v = make_float2(0.f, 0.f);
        if (r < nRows) {
            const int tok = tile.tokenBegin + r / G, head = kvh * G + r % G;
            v = *reinterpret_cast<const float2*>(p.q + tok * qStride + static_cast<int64_t>(head) * D + d);
        }
        *reinterpret_cast<__half2*>(&Qs[r][d]) = __floats2half2_rn(v.x, v.y);
    }
    __syncthreads();
    uint32_t qf[D / 16][4];
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) ldmatrixX4(qf[kk], &Qs[warp * 16 + (lane & 15)][kk * 16 + (lane >> 4) * 8]);

    const bool active = warp * 16 < nRows;  // a warp whose 16 rows are all padding only copies
    const int rA = warp * 16 + g, rB = rA + 8;
    const int posA = rA < nRows ? firstPos + rA / G : -1, posB = rB < nRows ? firstPos + rB / G : -1;
    float o[D / 8][4];
#pragma unroll
    for (int n = 0; n < D / 8; ++n)
#pragma unroll
        for (int k = 0; k < 4; ++k) o[n][k] = 0.f;
    float mA = -INFINITY, mB = -INFINITY, lA = 0.f, lB = 0.f;

    for (int c = 0; c < nChunks; ++c) {
        if (c + 1 < nChunks) issue(c + 1, (c + 1) & 1);
        else cpCommit();
        cpWaitPending(1);
        __syncthreads();
        if constexpr (kFp8) {
            // The chunk's raw rows into the f16 tiles, 8 values a task (the tiles' last readers
            // passed the barrier that ended the previous chunk).
            constexpr int kGroups = kKeys * D / 8;
            for (int e = tid; e < 2 * kGroups; e += kThreads) {
                const int kv = e / kGroups, key = (e - kv * kGroups) / (D / 8), grp = e % (D / 8);
                const uint2 w = *reinterpret_cast<const uint2*>(raw + ((kv * 2 + (c & 1)) * kKeys + key) * D + grp * 8);
                uint4 h;
                h.x = fp8x2ToHalf2(static_cast<uint16_t>(w.x));
                h.y = fp8x2ToHalf2(static_cast<uint16_t>(w.x >> 16));
                h.z = fp8x2ToHalf2(static_cast<uint16_t>(w.y));
                h.w = fp8x2ToHalf2(static_cast<uint16_t>(w.y >> 16));
                *reinterpret_cast<uint4*>((kv ? vTileAt(0) : kTileAt(0)) + key * kLd + grp * 8) = h;
            }
            __syncthreads();
        }
        if (!active) {
            __syncthreads();
            continue;
        }
        const int st = c & 1;
        float s[kNT][4];
#pragma unroll
        for (int n = 0; n < kNT; ++n)
#pragma unroll
            for (int k = 0; k < 4; ++k) s[n][k] = 0.f;
#pragma unroll
        for (int kk = 0; kk < D / 16; ++kk)
#pragma unroll
            for (int n0 = 0; n0 < kNT; n0 += 2) {
                uint32_t b[4];
                ldmatrixX4(b, kTileAt(st) + (keyOff + (n0 + (lane >> 4)) * 8 + (lane & 7)) * kLd + kk * 16 + ((lane >> 3) & 1) * 8);
                mma16816(s[n0], qf[kk][0], qf[kk][1], qf[kk][2], qf[kk][3], b[0], b[1]);
                mma16816(s[n0 + 1], qf[kk][0], qf[kk][1], qf[kk][2], qf[kk][3], b[2], b[3]);
            }
        // Scale and mask; the chunk's row maxima over the quad of lanes that share a row.
        float mxA = -INFINITY, mxB = -INFINITY;
#pragma unroll
        for (int n = 0; n < kNT; ++n)
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int inChunk = keyOff + n * 8 + 2 * tq + (k & 1), key = kBase + c * kKeys + inChunk;
                const float v = (kFp8 ? s[n][k] * rawScale[st * kKeys + inChunk] : s[n][k]) * p.scale;
                s[n][k] = key <= (k < 2 ? posA : posB) && key < kEnd ? v : -INFINITY;
                if (k < 2) mxA = fmaxf(mxA, s[n][k]);
                else mxB = fmaxf(mxB, s[n][k]);
            }
#pragma unroll
        for (int off = 1; off <= 2; off <<= 1) {
            mxA = fmaxf(mxA, __shfl_xor_sync(0xFFFFFFFFu, mxA, off));
            mxB = fmaxf(mxB, __shfl_xor_sync(0xFFFFFFFFu, mxB, off));
        }
        const float nA = fmaxf(mA, mxA), nB = fmaxf(mB, mxB);
        const float cA = (nA == -INFINITY || mA == -INFINITY) ? (nA == -INFINITY ? 1.f : 0.f) : expf(mA - nA);
        const float cB = (nB == -INFINITY || mB == -INFINITY) ? (nB == -INFINITY ? 1.f : 0.f) : expf(mB - nB);
        mA = nA;
        mB = nB;
        lA *= cA;
        lB *= cB;
#pragma unroll
        for (int n = 0; n < kNT; ++n)
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const float m = k < 2 ? nA : nB;
                const float e = s[n][k] == -INFINITY ? 0.f : expf(s[n][k] - m);
                // FP8: P·V multiplies the stored values, so the probability takes the key's V scale.
                s[n][k] = kFp8 ? e * rawScale[(2 + st) * kKeys + keyOff + n * 8 + 2 * tq + (k & 1)] : e;
                if (k < 2) lA += e;
                else lB += e;
            }
#pragma unroll
        for (int n = 0; n < D / 8; ++n) {
            o[n][0] *= cA;
            o[n][1] *= cA;
            o[n][2] *= cB;
            o[n][3] *= cB;
        }
        // O += P·V, P as high + low f16 parts.
#pragma unroll
        for (int ks = 0; ks < kNT / 2; ++ks) {
            // A fragment: rows A / B (c0 c1 / c2 c3) of the key tiles 2ks and 2ks + 1.
            uint32_t hi[4], lo[4];
            splitHalf2(s[2 * ks][0], s[2 * ks][1], hi[0], lo[0]);
            splitHalf2(s[2 * ks][2], s[2 * ks][3], hi[1], lo[1]);
            splitHalf2(s[2 * ks + 1][0], s[2 * ks + 1][1], hi[2], lo[2]);
            splitHalf2(s[2 * ks + 1][2], s[2 * ks + 1][3], hi[3], lo[3]);
#pragma unroll
            for (int nd = 0; nd < D / 8; nd += 2) {
                uint32_t b[4];
                ldmatrixX4Trans(b, vTileAt(st) + (keyOff + ks * 16 + ((lane >> 3) & 1) * 8 + (lane & 7)) * kLd + (nd + (lane >> 4)) * 8);
                mma16816(o[nd], hi[0], hi[1], hi[2], hi[3], b[0], b[1]);
                mma16816(o[nd], lo[0], lo[1], lo[2], lo[3], b[0], b[1]);
                mma16816(o[nd + 1], hi[0], hi[1], hi[2], hi[3], b[2], b[3]);
                mma16816(o[nd + 1], lo[0], lo[1], lo[2], lo[3], b[2], b[3]);
            }
        }
        __syncthreads();  // the stage is refilled two chunks later
    }

#pragma unroll
    for (int off = 1; off <= 2; off <<= 1) {
        lA += __shfl_xor_sync(0xFFFFFFFFu, lA, off);
        lB += __shfl_xor_sync(0xFFFFFFFFu, lB, off);
    }
    if constexpr (kSplit) {
        // The second key half's state through shared memory (the key stages are free: the loop
        // ended with a barrier), merged into the first half's warp, which writes the rows.
        constexpr int kPer = D / 8 * 4 + 4;  // floats per lane
        static_assert(64 * kPer * 4 <= kF16Tiles * kTile * 2, "the merge fits the f16 tiles");
        float* x = reinterpret_cast<float*>(kvSmem) + (warp * 32 + lane) * kPer;
        if (keyOff) {
#pragma unroll
            for (int n = 0; n < D / 8; ++n)
#pragma unroll
                for (int k = 0; k < 4; ++k) x[n * 4 + k] = o[n][k];
            x[D / 2] = mA;
            x[D / 2 + 1] = mB;
            x[D / 2 + 2] = lA;
            x[D / 2 + 3] = lB;
        }
        __syncthreads();
        if (!keyOff) {
            const float m2A = x[D / 2], m2B = x[D / 2 + 1];
            const float MA = fmaxf(mA, m2A), MB = fmaxf(mB, m2B);
            const float fA = mA == -INFINITY ? 0.f : expf(mA - MA), gA = m2A == -INFINITY ? 0.f : expf(m2A - MA);
            const float fB = mB == -INFINITY ? 0.f : expf(mB - MB), gB = m2B == -INFINITY ? 0.f : expf(m2B - MB);
#pragma unroll
            for (int n = 0; n < D / 8; ++n) {
                o[n][0] = o[n][0] * fA + x[n * 4] * gA;
                o[n][1] = o[n][1] * fA + x[n * 4 + 1] * gA;
                o[n][2] = o[n][2] * fB + x[n * 4 + 2] * gB;
                o[n][3] = o[n][3] * fB + x[n * 4 + 3] * gB;
            }
            lA = lA * fA + x[D / 2 + 2] * gA;
            lB = lB * fB + x[D / 2 + 3] * gB;
            mA = MA;
            mB = MB;
        }
    }
    const bool writer = !keyOff;  // the warp that holds a row group's final state
    if (nParts > 1) {
        // Unnormalized output, max and sum per row for the merge; the last CTA of the tile merges.
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int r = half ? rB : rA;
            if (!writer || !active || r >= nRows) continue;
            const int64_t row = partitionRow(p, tile, kvh, r) + part;
            float* po = p.partO + row * D;
#pragma unroll
            for (int n = 0; n < D / 8; ++n)
                *reinterpret_cast<float2*>(po + n * 8 + 2 * tq) = make_float2(o[n][2 * half], o[n][2 * half + 1]);
            if (tq == 0) {
                p.partML[row * 2] = half ? mB : mA;
                p.partML[row * 2 + 1] = half ? lB : lA;
            }
        }
        // The key stages are free (the loop ended with a barrier): merge weights go there.
        mergeAttentionPartitions<kThreads, 4>(p, tile, kvh, nRows, nParts, reinterpret_cast<float*>(kvSmem), mergeL, &mergeFlag);
        return;
    }
    const float iA = lA > 0.f ? 1.f / lA : 0.f, iB = lB > 0.f ? 1.f / lB : 0.f;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
        const int r = half ? rB : rA;
        if (!writer || r >= nRows) continue;
        const float inv = half ? iB : iA;
        const int tok = tile.tokenBegin + r / G, head = kvh * G + r % G;
        float* out = p.out + tok * qStride + static_cast<int64_t>(head) * D;
#pragma unroll
        for (int n = 0; n < D / 8; ++n)
            *reinterpret_cast<float2*>(out + n * 8 + 2 * tq) = make_float2(o[n][2 * half] * inv, o[n][2 * half + 1] * inv);
    }
}

}  // namespace

bool attentionMmaSupports(int D, int kvKind) { return (kvKind == kKvF16 || kvKind == kKvFP8) && (D == 64 || D == 128); }

int attentionMmaResidentCtas(int kvKind) {
    return residentCtas(kvKind == kKvFP8 ? attentionMmaKernel<128, true, true> : attentionMmaKernel<128, true, false>);
}

cudaError_t launchAttentionMma(const AttnParams& p, int nTiles, cudaStream_t s) {
    if (nTiles <= 0) return cudaSuccess;
    if (!attentionMmaSupports(p.D, p.kvKind) || p.tileRows > kAttnMaxRows || p.partitions < 1 ||
        p.partitions > kAttnMaxPartitions)
        return cudaErrorInvalidValue;
    const dim3 grid(nTiles, p.Hkv, p.partitions);
    // The split-keys variant unless HEARTH_CUDA_MMA_SPLIT=0 (measuring: llama8b Q4_K_M batch-1
    // decode 397 tok/s split against 370 with two warps, pp512 the same, H200).
    static const bool split = [] {
        const char* v = std::getenv("HEARTH_CUDA_MMA_SPLIT");
        return !v || std::atoi(v) != 0;
    }();
    const int ctas = nTiles * p.Hkv * p.partitions;
    if (p.kvKind == kKvFP8) {  // the split-keys variant only
        if (p.D == 64) return launchKernel(attentionMmaKernel<64, true, true>, grid, 128, 0, s, p);
        if (ctas > p.cappedAbove)
            return launchKernel(attentionMmaKernel<128, true, true, true>, grid, 128, 0, s, p);
        return launchKernel(attentionMmaKernel<128, true, true>, grid, 128, 0, s, p);
    }
    if (split) {
        if (p.D == 64) return launchKernel(attentionMmaKernel<64, true, false>, grid, 128, 0, s, p);
        if (ctas > p.cappedAbove)
            return launchKernel(attentionMmaKernel<128, true, false, true>, grid, 128, 0, s, p);
        return launchKernel(attentionMmaKernel<128, true, false>, grid, 128, 0, s, p);
    }
    if (p.D == 64) return launchKernel(attentionMmaKernel<64, false, false>, grid, 64, 0, s, p);
    return launchKernel(attentionMmaKernel<128, false, false>, grid, 64, 0, s, p);
}

}  // namespace hearth::cuda
