#pragma once
// The merge of a tile's attention partitions, shared by the paged attention kernels. Each CTA
// (tile × KV head × partition) writes its rows' unnormalized output, running max and running sum
// to partO / partML; the last CTA of the tile to finish (an atomic counter per tile and KV head,
// reset by that CTA for the next launch) merges all of them in partition order, so the result
// never depends on which CTA came last.
#include <cstdint>

#include "cuda/KernelParams.h"

namespace hearth::cuda {

// Row r of a tile (token r / G, query head kvh * G + r % G) as the first of its P partition slots.
__device__ __forceinline__ int64_t partitionRow(const AttnParams& p, const AttnTile& tile, int kvh, int r) {
    const int tok = tile.tokenBegin + r / p.G, head = kvh * p.G + r % p.G;
    return (static_cast<int64_t>(tok) * p.Hq + head) * p.partitions;
}

// Called by every thread of the CTA once its partition's partials are written. Returns true in
// the CTA that merged (and wrote p.out for the tile's rows). Shared scratch: weights
// [kAttnMaxRows][kAttnMaxPartitions], sums [kAttnMaxRows], flag.
template <int kThreads, int kEl = 1>
__device__ bool mergeAttentionPartitions(const AttnParams& p, const AttnTile& tile, int kvh, int nRows, int nParts,
                                         float* weights, float* sums, int* flag) {
    const int D = p.D;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        int* counter = p.counters + blockIdx.x * gridDim.y + blockIdx.y;
        *flag = atomicAdd(counter, 1) == nParts - 1;
        if (*flag) *counter = 0;  // ready for the next launch
    }
    __syncthreads();
    if (!*flag) return false;
    __threadfence();
    if (static_cast<int>(threadIdx.x) < nRows) {
        // Unrolled so that eight loads are in flight at a time: one at a time, the partitions'
        // maxima and sums cost a few microseconds of L2 round trips per step at batch 1.
        const float2* ml = reinterpret_cast<const float2*>(p.partML) + partitionRow(p, tile, kvh, threadIdx.x);
        float* w = weights + threadIdx.x * kAttnMaxPartitions;
        float M = -INFINITY;
#pragma unroll 8
        for (int i = 0; i < nParts; ++i) {
            w[i] = __ldcg(&ml[i].x);
            M = fmaxf(M, w[i]);
        }
        float L = 0.f;
#pragma unroll 8
        for (int i = 0; i < nParts; ++i) {
            const float l = __ldcg(&ml[i].y);
            w[i] = w[i] == -INFINITY ? 0.f : expf(w[i] - M);
            L += w[i] * l;
        }
        sums[threadIdx.x] = L;
    }
    __syncthreads();
    const int64_t qStride = static_cast<int64_t>(p.Hq) * D;
    // kEl elements per thread at a time, their partitions' loads in flight together (with one,
    // a verification step's 16 rows were 16 rounds of L2 latency); each element still sums its
    // partitions in order.
    for (int e0 = threadIdx.x; e0 < nRows * D; e0 += kEl * kThreads) {
        float o[kEl];
        int64_t src[kEl];
        int rw[kEl];
        bool ok[kEl];
#pragma unroll
        for (int k = 0; k < kEl; ++k) {
            const int e = e0 + k * kThreads;
            ok[k] = e < nRows * D;
            const int r = ok[k] ? e / D : 0, d = e - r * D;
            rw[k] = r;
            src[k] = partitionRow(p, tile, kvh, r) * D + (ok[k] ? d : 0);
            o[k] = 0.f;
        }
#pragma unroll 8
        for (int i = 0; i < nParts; ++i)
#pragma unroll
            for (int k = 0; k < kEl; ++k)
                if (ok[k]) o[k] += weights[rw[k] * kAttnMaxPartitions + i] * __ldcg(p.partO + src[k] + static_cast<int64_t>(i) * D);
#pragma unroll
        for (int k = 0; k < kEl; ++k) {
            if (!ok[k]) continue;
            const int r = rw[k], d = e0 + k * kThreads - r * D;
            const float L = sums[r];
            const int tok = tile.tokenBegin + r / p.G, head = kvh * p.G + r % p.G;
            p.out[tok * qStride + static_cast<int64_t>(head) * D + d] = L > 0.f ? o[k] / L : 0.f;
        }
    }
    return true;
}

}  // namespace hearth::cuda
