// Per token and head, in the CPU's order: add the Q/K/V bias (qwen2), per-head RMSNorm of Q and K
// (qwen3), rotate Q and K (RoPE, normal or NeoX pairs, angles from the host-built table), write the
// rotated Q back and K/V into their KV cache rows. One warp per (token, head).
#include "cuda/kernels/KvAccess.cuh"
#include "cuda/kernels/Launch.cuh"

namespace hearth::cuda {
namespace {

constexpr int kWarps = 4;

__global__ void __launch_bounds__(128) ropeStoreKernel(const RopeStoreParams p) {
    __shared__ float buf[kWarps][kAttnMaxHeadDim];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int hh = blockIdx.y * kWarps + warp;
    const int t = blockIdx.x;
    const int D = p.D;
    if (hh >= p.Hq + 2 * p.Hkv) return;
    const int kind = hh < p.Hq ? 0 : (hh < p.Hq + p.Hkv ? 1 : 2);  // q, k, v
    const int h = kind == 0 ? hh : (kind == 1 ? hh - p.Hq : hh - p.Hq - p.Hkv);
    const int heads = kind == 0 ? p.Hq : p.Hkv;
    // Positions, slots (from the host) and the rotation's table entries (constant) before the
    // wait: only the projections themselves come from the previous kernel.
    const int64_t pos = p.tokenPos[t];
    const int slot = p.tokenSlot[t];
    constexpr int kMaxPairs = kAttnMaxHeadDim / 2 / 32;  // per lane
    float rc[kMaxPairs], rs[kMaxPairs];
#pragma unroll
    for (int k = 0; k < kMaxPairs; ++k) {
        const int i = lane + 32 * k;
        rc[k] = kind != 2 && i < p.ropePairs ? p.ropeCos[pos * p.ropePairs + i] : 0.f;
        rs[k] = kind != 2 && i < p.ropePairs ? p.ropeSin[pos * p.ropePairs + i] : 0.f;
    }
    pdlWait();
    pdlTrigger();
    const float* src = (kind == 0 ? p.q : (kind == 1 ? p.k : p.v)) + (static_cast<int64_t>(t) * heads + h) * D;
    const float* bias = kind == 0 ? p.bq : (kind == 1 ? p.bk : p.bv);
    float* x = buf[warp];
    for (int d = lane; d < D; d += 32) x[d] = bias ? src[d] + bias[h * D + d] : src[d];
    __syncwarp();
    const float* nw = kind == 0 ? p.qNorm : (kind == 1 ? p.kNorm : nullptr);
    if (nw) {
        double s = 0;
        for (int d = lane; d < D; d += 32) s += static_cast<double>(__fmul_rn(x[d], x[d]));
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xFFFFFFFFu, s, o);
        const float mean = static_cast<float>(s / static_cast<double>(D));
        const float sc = __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(mean, p.eps)));
        __syncwarp();
        for (int d = lane; d < D; d += 32) x[d] = __fmul_rn(__fmul_rn(x[d], sc), nw[d]);
        __syncwarp();
    }
    if (kind != 2) {
#pragma unroll
        for (int k = 0; k < kMaxPairs; ++k) {
            const int i = lane + 32 * k;
            if (i >= p.ropePairs) break;
            const int a = p.neox ? i : 2 * i, b = p.neox ? i + p.ropePairs : 2 * i + 1;
            const float x0 = x[a], x1 = x[b], c = rc[k], s = rs[k];
            x[a] = __fsub_rn(__fmul_rn(x0, c), __fmul_rn(x1, s));
            x[b] = __fadd_rn(__fmul_rn(x0, s), __fmul_rn(x1, c));
        }
        __syncwarp();
    }
    if (kind == 0) {
        float* dst = p.q + (static_cast<int64_t>(t) * p.Hq + h) * D;
        for (int d = lane; d < D; d += 32) dst[d] = x[d];
        return;
    }
    if (slot < 0) return;
    uint8_t* blk = p.pool + static_cast<uint64_t>(slot >> 4) * p.blockBytes;
    const int rowIdx = h * 16 + (slot & 15);
    uint8_t* row = blk + (kind == 1 ? p.kOff : p.vOff) + static_cast<uint64_t>(rowIdx) * p.rowBytes;
    float* scale = reinterpret_cast<float*>(blk + (kind == 1 ? p.kScaleOff : p.vScaleOff)) + rowIdx;
    storeKvRow(p.kvKind, x, D, row, scale);
}

}  // namespace

cudaError_t launchRopeStore(const RopeStoreParams& p, cudaStream_t s) {
    if (p.T <= 0) return cudaSuccess;
    if (p.D > kAttnMaxHeadDim) return cudaErrorInvalidValue;
    const dim3 grid(p.T, (p.Hq + 2 * p.Hkv + kWarps - 1) / kWarps);
    return launchKernel(ropeStoreKernel, grid, 128, 0, s, p);
}

}  // namespace hearth::cuda
