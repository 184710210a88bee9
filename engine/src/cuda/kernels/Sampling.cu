// Token sampling on the device, one CTA per logit row, with the host Sampler's semantics
// (sampling/Sampler.h) so a row draws the same token for the same uniform: greedy is the argmax
// (lowest id on ties); otherwise candidates within 40/T of the max, sorted by (logit desc, id asc),
// truncated by top-k, then top-p and min-p on the softmax at temperature 1, renormalized at the
// temperature, and drawn by walking the cumulative sum with the row's uniform. A row's banned ids
// (ignore_eos) are never drawn.
//
// The device sorts at most kSampleCap candidates (found by a 4-pass radix select on the ordered
// float bits). A row whose kept set is not decided inside those (top-k above the cap, or no top-k
// and a nucleus wider than the cap) is flagged for the host sampler instead.
#include <cfloat>
#include <climits>

#include "cuda/KernelParams.h"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kThreads = 1024;
constexpr int kWarps = kThreads / 32;

__device__ __forceinline__ float cleanLogit(float v) { return isnan(v) ? -INFINITY : v; }

// Logit i of a row as the sampler sees it: NaN and the row's banned ids as -inf (the host Sampler
// bans them the same way, before anything else).
__device__ __forceinline__ float rowLogit(const float* l, int i, const SampleRow& sr) {
    const bool banned = i == sr.banned[0] || i == sr.banned[1] || i == sr.banned[2] || i == sr.banned[3];
    return banned ? -INFINITY : cleanLogit(l[i]);
}

// Monotone map of floats to unsigned integers (larger float, larger key).
__device__ __forceinline__ uint32_t orderedKey(float v) {
    const uint32_t b = __float_as_uint(v);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

// a sorts before b: larger logit first, then smaller id.
__device__ __forceinline__ bool before(float la, int ia, float lb, int ib) { return la > lb || (la == lb && ia < ib); }

struct Shared {
    float candL[kSampleCap];
    int candI[kSampleCap];
    unsigned hist[256];
    float redF[kWarps];
    int redI[kWarps];
    double redD[kWarps];
    unsigned prefix, need, nSel, eqTaken, warpCount[kWarps];
};

__device__ void blockArgmax(Shared& sh, float& v, int& i) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float v2 = __shfl_xor_sync(0xFFFFFFFFu, v, o);
        const int i2 = __shfl_xor_sync(0xFFFFFFFFu, i, o);
        if (before(v2, i2, v, i)) { v = v2; i = i2; }
    }
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) { sh.redF[w] = v; sh.redI[w] = i; }
    __syncthreads();
    v = sh.redF[0];
    i = sh.redI[0];
    for (int k = 1; k < kWarps; ++k)
        if (before(sh.redF[k], sh.redI[k], v, i)) { v = sh.redF[k]; i = sh.redI[k]; }
    __syncthreads();
}

__device__ int blockSumI(Shared& sh, int v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    if ((threadIdx.x & 31) == 0) sh.redI[threadIdx.x >> 5] = v;
    __syncthreads();
    int s = 0;
    for (int k = 0; k < kWarps; ++k) s += sh.redI[k];
    __syncthreads();
    return s;
}

__device__ double blockSumD(Shared& sh, double v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    if ((threadIdx.x & 31) == 0) sh.redD[threadIdx.x >> 5] = v;
    __syncthreads();
    double s = 0;
    for (int k = 0; k < kWarps; ++k) s += sh.redD[k];
    __syncthreads();
    return s;
}

__global__ void __launch_bounds__(kThreads) sampleKernel(const SampleParams p) {
    __shared__ Shared sh;
    pdlWait();
    pdlTrigger();
    const int row = blockIdx.x, V = p.vocab, tid = threadIdx.x;
    const float* l = p.logits + static_cast<int64_t>(row) * V;
    const SampleRow sr = p.rows[row];

    float mx = -INFINITY;
    int best = INT_MAX;
    for (int i = tid; i < V; i += kThreads) {
        const float v = rowLogit(l, i, sr);
        if (before(v, i, mx, best)) { mx = v; best = i; }
    }
    blockArgmax(sh, mx, best);
    if (best == INT_MAX) best = 0;
    if (sr.temperature <= 0.f || !isfinite(mx)) {
        if (tid == 0) { p.tokens[row] = best; p.fallback[row] = 0; }
        return;
    }
    const float temp = sr.temperature;
    const float floorV = mx - 40.0f * fmaxf(temp, 1e-3f);
    int cnt = 0;
    double z = 0;
    for (int i = tid; i < V; i += kThreads) {
        const float v = rowLogit(l, i, sr);
        if (v >= floorV) { ++cnt; z += static_cast<double>(expf(v - mx)); }
    }
    cnt = blockSumI(sh, cnt);
    z = blockSumD(sh, z);
    const int kWant = sr.topK > 0 ? min(sr.topK, cnt) : cnt;
    const bool partial = kWant > kSampleCap;
    // Top-k above the cap would need the softmax over candidates the device does not hold.
    if (partial && sr.topK > 0 && sr.topK < cnt) {
        if (tid == 0) { p.tokens[row] = -1; p.fallback[row] = 1; }
        return;
    }
    const int kSel = min(kWant, kSampleCap);

    // Radix select: the kSel-th largest key, 8 bits per pass.
    if (tid == 0) { sh.prefix = 0; sh.need = static_cast<unsigned>(kSel); }
    uint32_t mask = 0;
    for (int pass = 0; pass < 4; ++pass) {
        const int shift = 24 - 8 * pass;
        if (tid < 256) sh.hist[tid] = 0;
        __syncthreads();
        const uint32_t prefix = sh.prefix;
        for (int i = tid; i < V; i += kThreads) {
            const uint32_t key = orderedKey(rowLogit(l, i, sr));
            if ((key & mask) == prefix) atomicAdd(&sh.hist[(key >> shift) & 255u], 1u);
        }
        __syncthreads();
        if (tid == 0) {
            unsigned cum = 0, need = sh.need;
            for (int b = 255; b >= 0; --b) {
                if (cum + sh.hist[b] >= need) {
                    sh.need = need - cum;  // still to take inside bin b
                    sh.prefix = prefix | (static_cast<uint32_t>(b) << shift);
                    break;
                }
                cum += sh.hist[b];
            }
        }
        mask |= 255u << shift;
        __syncthreads();
    }
    const uint32_t tau = sh.prefix;
    const unsigned needEq = sh.need;  // how many of the keys equal to tau (lowest ids first)
    if (tid == 0) { sh.nSel = 0; sh.eqTaken = 0; }
    __syncthreads();
    const int lane = tid & 31, w = tid >> 5;
    for (int base = 0; base < V; base += kThreads) {
        const int i = base + tid;
        const float v = i < V ? rowLogit(l, i, sr) : -INFINITY;
        const uint32_t key = i < V ? orderedKey(v) : 0u;
        const bool gt = i < V && key > tau, eq = i < V && key == tau;
        const unsigned ballot = __ballot_sync(0xFFFFFFFFu, eq);
        if (lane == 0) sh.warpCount[w] = __popc(ballot);
        __syncthreads();
        unsigned rank = __popc(ballot & ((1u << lane) - 1u));
        for (int k = 0; k < w; ++k) rank += sh.warpCount[k];
        const unsigned taken = sh.eqTaken;
        if (gt || (eq && taken + rank < needEq)) {
            const unsigned slot = atomicAdd(&sh.nSel, 1u);
            if (slot < kSampleCap) { sh.candL[slot] = v; sh.candI[slot] = i; }
        }
        __syncthreads();
        if (tid == 0) {
            unsigned total = 0;
            for (int k = 0; k < kWarps; ++k) total += sh.warpCount[k];
            sh.eqTaken = taken + total;
        }
        __syncthreads();
    }
    const int n = min(static_cast<int>(sh.nSel), kSampleCap);
    for (int i = n + tid; i < kSampleCap; i += kThreads) { sh.candL[i] = -INFINITY; sh.candI[i] = INT_MAX; }
    __syncthreads();
    // Bitonic sort of kSampleCap (= kThreads) entries.
    for (int size = 2; size <= kSampleCap; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            const int j = tid ^ stride;
            if (j > tid) {
                const bool up = (tid & size) == 0;  // this half sorts "before"-first
                const float la = sh.candL[tid], lb = sh.candL[j];
                const int ia = sh.candI[tid], ib = sh.candI[j];
                if (up == before(lb, ib, la, ia)) {
                    sh.candL[tid] = lb; sh.candL[j] = la;
                    sh.candI[tid] = ib; sh.candI[j] = ia;
                }
            }
            __syncthreads();
        }
    }
    if (tid != 0) return;

    // The host Sampler's chain on the sorted candidates (thread 0, in order, for the same sums).
    const int kept0 = kSel;
    double sum = 0;
    // softmax at temperature 1 (over the kept set; over every candidate when it is only partly held)
    for (int i = 0; i < kept0; ++i) sum += static_cast<double>(expf(sh.candL[i] - mx));
    if (partial) sum = z;
    int keep = kept0;
    bool decided = !partial;
    if (sr.topP < 1.0f) {
        double cum = 0;
        for (int i = 0; i < kept0; ++i) {
            cum += static_cast<double>(static_cast<float>(static_cast<double>(expf(sh.candL[i] - mx)) / sum));
            if (cum >= sr.topP) { keep = i + 1; decided = true; break; }
        }
    }
    if (sr.minP > 0.0f) {
        const float p0 = static_cast<float>(static_cast<double>(expf(sh.candL[0] - mx)) / sum);
        const float thresh = p0 * sr.minP;
        int k = 1;
        while (k < keep && static_cast<float>(static_cast<double>(expf(sh.candL[k] - mx)) / sum) >= thresh) ++k;
        if (k < keep) decided = true;
        keep = k;
    }
    if (!decided) {
        p.tokens[row] = -1;
        p.fallback[row] = 1;
        return;
    }
    double s2 = 0;
    for (int i = 0; i < keep; ++i) s2 += static_cast<double>(expf((sh.candL[i] - mx) / temp));
    int token = sh.candI[keep - 1];
    if (keep == 1) {
        token = sh.candI[0];
    } else {
        float cum = 0;
        for (int i = 0; i < keep; ++i) {
            cum += static_cast<float>(static_cast<double>(expf((sh.candL[i] - mx) / temp)) / s2);
            if (sr.uniform < cum) { token = sh.candI[i]; break; }
        }
    }
    p.tokens[row] = token;
    p.fallback[row] = 0;
}

}  // namespace

cudaError_t launchSample(const SampleParams& p, int rows, cudaStream_t s) {
    if (rows <= 0) return cudaSuccess;
    return launchKernel(sampleKernel, rows, kThreads, 0, s, p);
}

}  // namespace hearth::cuda
