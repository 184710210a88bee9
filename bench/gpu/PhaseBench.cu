// Where a batch-1 decode step's time goes when the model arithmetic is taken away: weight-sized
// byte ranges (llama8b's Q/K/V, output, gate/up and down matrices, 32 layers: one "token") read
// once, in the ways the engine's kernels could read them. Three parts:
//  1. Boundaries: the ranges streamed (consecutive 16-byte loads across the grid, eight in flight
//     per thread) by one launch each with programmatic dependent launch in a CUDA graph (the
//     engine's step), or by one persistent launch with a grid-wide barrier between ranges (a
//     layer-persistent kernel), the next range's first loads before or after the barrier; an
//     empty mix gives the cost of a boundary alone.
//  2. The k-quant matrix-vector kernel's movement (KQuantGemv.cu: a warp per row pair, pieces of
//     1152 bytes by cp.async, two in flight; or the same ownership with loads to registers) on
//     the Q4_K_M shapes.
//  3. The dense kernel's movement (DenseGemv.cu: a warp per row pair, four 16-byte loads per row
//     and lane) on the F16 shapes, with and without its arithmetic, and variants of it.
// Results: docs/benchmarks.md (ninth session).
//
// Build and run on the GPU machine (no engine code but its launch helper, kernels/Launch.cuh):
//   nvcc -O3 -std=c++17 -arch=sm_90 -I engine/src bench/gpu/PhaseBench.cu engine/src/cuda/kernels/Launch.cu \
//     -o /tmp/phase-bench && /tmp/phase-bench
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "BenchTiming.cuh"
#include "cuda/kernels/Launch.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kBatch = 8;  // 16-byte loads in flight per thread

struct Range {
    const uint4* p;
    long long vecs;  // 16-byte vectors
};

struct Barrier {
    unsigned count;
    unsigned gen;
};

using hearth::cuda::pdlTrigger;
using hearth::cuda::pdlWait;

// This thread's first batch of range r (the loads that may run ahead of a boundary).
__device__ __forceinline__ void firstBatch(const Range& r, long long me, long long stride, uint4 (&v)[kBatch]) {
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
        const long long i = me + k * stride;
        v[k] = i < r.vecs ? __ldg(r.p + i) : make_uint4(0, 0, 0, 0);
    }
}

// The rest of range r after the first batch; folds everything into acc.
__device__ __forceinline__ void restOf(const Range& r, long long me, long long stride, const uint4 (&first)[kBatch], uint4& acc) {
#pragma unroll
    for (int k = 0; k < kBatch; ++k) {
        acc.x ^= first[k].x; acc.y ^= first[k].y; acc.z ^= first[k].z; acc.w ^= first[k].w;
    }
    for (long long base = me + kBatch * stride; base < r.vecs; base += kBatch * stride) {
        uint4 v[kBatch];
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            const long long i = base + k * stride;
            v[k] = i < r.vecs ? __ldg(r.p + i) : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            acc.x ^= v[k].x; acc.y ^= v[k].y; acc.z ^= v[k].z; acc.w ^= v[k].w;
        }
    }
}

__device__ __forceinline__ void sinkIf(const uint4& acc, unsigned* sink) {
    if (acc.x == 0x9E3779B9u && acc.y == 0x7F4A7C15u) sink[threadIdx.x] = acc.z ^ acc.w;  // never: keeps the loads
}

__global__ void __launch_bounds__(kThreads) rangeKernel(Range r, unsigned* sink) {
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    const long long me = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
    uint4 first[kBatch];
    firstBatch(r, me, stride, first);  // weights only before the wait
    pdlWait();
    pdlTrigger();
    uint4 acc = make_uint4(0, 0, 0, 0);
    restOf(r, me, stride, first, acc);
    sinkIf(acc, sink);
}

// The k-quant matrix-vector kernel's movement without its arithmetic: a warp owns a pair of rows
// (two adjacent rows, or row i of each half: the gate / up pair) and walks them in pieces of 1152
// bytes (8 Q4_K blocks), both rows' piece copied to its shared memory with cp.async, the next piece
// in flight while one is read (two buffers by item parity); CTAs of 4 warps, persistent.
struct Pairs {
    const uint8_t* base;
    int pairs, rowBytes;
    long long rowDelta;  // bytes from a pair's first row to its second
};
constexpr int kPiece = 1152, kSlot = kPiece + 16;

__device__ __forceinline__ void cpAsync16If(unsigned dst, const void* src, bool pred) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\n@p cp.async.cg.shared.global [%0], [%1], 16;\n}\n" ::"r"(dst), "l"(src),
                 "r"(static_cast<int>(pred)));
}

__global__ void __launch_bounds__(128, 5) pairCopyKernel(Pairs m, unsigned* sink) {
    __shared__ __align__(16) uint8_t sw[4][2][2][kSlot];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int first = blockIdx.x * 4 + warp, stride = gridDim.x * 4;
    const int myPairs = first < m.pairs ? (m.pairs - 1 - first) / stride + 1 : 0;
    const int nPieces = (m.rowBytes + kPiece - 1) / kPiece, nItems = myPairs * nPieces;
    auto issue = [&](int item) {
        const int k = item / nPieces, pc = item - k * nPieces, v = first + k * stride;
        const int rowInPair = m.rowDelta == m.rowBytes ? 2 * v : v;
        const uint8_t* src = m.base + static_cast<long long>(rowInPair) * m.rowBytes + pc * kPiece;
        const int nv = min(kPiece, m.rowBytes - pc * kPiece) >> 4;
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&sw[warp][item & 1][r][0]));
#pragma unroll
            for (int j = 0; j < 3; ++j)
                cpAsync16If(dst + 16 * (lane + 32 * j), src + r * m.rowDelta + 16 * (lane + 32 * j), lane + 32 * j < nv);
        }
        asm volatile("cp.async.commit_group;\n" ::);
    };
    if (nItems > 0) issue(0);
    if (nItems > 1) issue(1);
    else asm volatile("cp.async.commit_group;\n" ::);
    pdlWait();
    pdlTrigger();
    unsigned acc = 0;
    for (int item = 0; item < nItems; ++item) {
        asm volatile("cp.async.wait_group 1;\n" ::: "memory");
        __syncwarp();
#pragma unroll
        for (int r = 0; r < 2; ++r)
#pragma unroll
            for (int j = 0; j < 9; ++j) acc ^= reinterpret_cast<const unsigned*>(sw[warp][item & 1][r])[lane + 32 * j];
        __syncwarp();
        if (item + 2 < nItems) issue(item + 2);
        else asm volatile("cp.async.commit_group;\n" ::);
    }
    if (acc == 0x9E3779B9u) sink[threadIdx.x] = acc;
}

// The same ownership with plain loads into registers: a lane's 16-byte chunks of both rows' piece,
// two pieces in flight.
__global__ void __launch_bounds__(128, 5) pairLoadKernel(Pairs m, unsigned* sink) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int first = blockIdx.x * 4 + warp, stride = gridDim.x * 4;
    const int myPairs = first < m.pairs ? (m.pairs - 1 - first) / stride + 1 : 0;
    const int nPieces = (m.rowBytes + kPiece - 1) / kPiece, nItems = myPairs * nPieces;
    auto load = [&](int item, uint4 (&v)[6]) {
        const int k = item / nPieces, pc = item - k * nPieces, w = first + k * stride;
        const int rowInPair = m.rowDelta == m.rowBytes ? 2 * w : w;
        const uint4* src = reinterpret_cast<const uint4*>(m.base + static_cast<long long>(rowInPair) * m.rowBytes + pc * kPiece);
        const int nv = item < nItems ? min(kPiece, m.rowBytes - pc * kPiece) >> 4 : 0;
#pragma unroll
        for (int r = 0; r < 2; ++r)
#pragma unroll
            for (int j = 0; j < 3; ++j)
                v[3 * r + j] = lane + 32 * j < nv ? __ldg(src + r * (m.rowDelta / 16) + lane + 32 * j) : make_uint4(0, 0, 0, 0);
    };
    uint4 a[6], b[6];
    load(0, a);
    load(1, b);
    pdlWait();
    pdlTrigger();
    uint4 acc = make_uint4(0, 0, 0, 0);
    auto fold = [&](const uint4 (&v)[6]) {
#pragma unroll
        for (int i = 0; i < 6; ++i) {
            acc.x ^= v[i].x; acc.y ^= v[i].y; acc.z ^= v[i].z; acc.w ^= v[i].w;
        }
    };
    for (int item = 0; item < nItems; item += 2) {
        fold(a);
        load(item + 2, a);
        if (item + 1 < nItems) fold(b);
        load(item + 3, b);
    }
    sinkIf(acc, sink);
}

__device__ __forceinline__ int4 ldStream(const int4* p) {  // no L1 allocation: the weights are read once
    int4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

// The dense (F16) matrix-vector kernel's movement: a warp owns two rows and reads kBatch 16-byte
// chunks of each per lane before using them; one CTA of 4 warps per 4 row pairs (not persistent).
//  kMath: with the kernel's arithmetic (the input chunk from L1, f16 to f32, FMAs, a warp sum);
//  kStaged: the inputs copied to shared memory once per CTA (dynamic, a row's bytes), read there;
//  kIndep: one sum per chunk of a batch (added at the end): short FMA chains instead of one long;
//  kNoAlloc: the weights loaded without allocating in L1;
//  kMinCtas: CTAs per multiprocessor the register allocation must allow.
template <int kBatch, bool kMath, bool kStaged = false, bool kIndep = false, bool kNoAlloc = false, int kMinCtas = 1>
__global__ void __launch_bounds__(128, kMinCtas) denseRowsKernel(Pairs m, const int4* actIn, unsigned* sink) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, v = blockIdx.x * 4 + warp;
    extern __shared__ int4 xs[];
    const int4* act = actIn;
    if constexpr (kStaged) {
        pdlWait();
        for (int i = threadIdx.x; i < m.rowBytes / 16; i += 128) xs[i] = actIn[i];
        __syncthreads();
        act = xs;
    }
    if (v >= m.pairs) return;
    const int rowInPair = m.rowDelta == m.rowBytes ? 2 * v : v;
    const int4* w0 = reinterpret_cast<const int4*>(m.base + static_cast<long long>(rowInPair) * m.rowBytes);
    const long long d = m.rowDelta / 16;
    const int nv = m.rowBytes / 16;
    pdlWait();
    pdlTrigger();
    float acc[2] = {0.f, 0.f}, accj[2][kBatch] = {};
    unsigned x = 0;
    for (int base = lane; base < nv; base += 32 * kBatch) {
        int4 wv[2][kBatch];
#pragma unroll
        for (int s = 0; s < 2; ++s)
#pragma unroll
            for (int j = 0; j < kBatch; ++j) {
                const int i = base + 32 * j;
                wv[s][j] = i < nv ? (kNoAlloc ? ldStream(w0 + s * d + i) : __ldg(w0 + s * d + i)) : make_int4(0, 0, 0, 0);
            }
#pragma unroll
        for (int j = 0; j < kBatch; ++j) {
            const int i = base + 32 * j;
            if (i >= nv) break;
            if constexpr (kMath) {
                const int4 av = act[i];
                const __half2* ah = reinterpret_cast<const __half2*>(&av);
#pragma unroll
                for (int s = 0; s < 2; ++s) {
                    const __half2* wh = reinterpret_cast<const __half2*>(&wv[s][j]);
#pragma unroll
                    for (int k = 0; k < 4; ++k) {
                        const float2 a = __half22float2(ah[k]), w = __half22float2(wh[k]);
                        if constexpr (kIndep) accj[s][j] = fmaf(w.x, a.x, fmaf(w.y, a.y, accj[s][j]));
                        else acc[s] = fmaf(w.x, a.x, fmaf(w.y, a.y, acc[s]));
                    }
                }
            } else {
#pragma unroll
                for (int s = 0; s < 2; ++s) x ^= wv[s][j].x ^ wv[s][j].y ^ wv[s][j].z ^ wv[s][j].w;
            }
        }
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
        acc[0] += accj[0][j];
        acc[1] += accj[1][j];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        acc[0] += __shfl_xor_sync(0xFFFFFFFFu, acc[0], o);
        acc[1] += __shfl_xor_sync(0xFFFFFFFFu, acc[1], o);
    }
    if (x == 0x9E3779B9u || acc[0] == 1234.5f) sink[threadIdx.x] = x ^ __float_as_uint(acc[1]);
}

// The dense product on tensor cores: a CTA of 8 warps owns 16 rows, warp j takes the 32-wide
// column blocks j, j + 8, ...; per block a lane loads 16 bytes of row g and of row g + 8 (lane =
// 4 g + t) and feeds them to two m16n8k16 MMAs as A fragments, the k order permuted alike for the
// inputs (lanes of group 0 hold the one token's 16 bytes, the other columns are zeros); the warps'
// partial sums are added through shared memory. Per 32 weights of 16 rows: 2 weight loads, one
// input load, 2 MMAs.
__device__ __forceinline__ void mmaF16(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <int kBatch>
__global__ void __launch_bounds__(256) mmaRowsKernel(Pairs m, const int4* act, unsigned* sink) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const int rows = 2 * m.pairs, row0 = blockIdx.x * 16;
    const int nb = m.rowBytes / 64;  // 32-element blocks of a row
    const int4* ra = reinterpret_cast<const int4*>(m.base + static_cast<long long>(min(row0 + g, rows - 1)) * m.rowBytes) + t;
    const int4* rb = reinterpret_cast<const int4*>(m.base + static_cast<long long>(min(row0 + g + 8, rows - 1)) * m.rowBytes) + t;
    pdlWait();
    pdlTrigger();
    float cj[kBatch][4] = {};
    for (int b0 = warp; b0 < nb; b0 += 8 * kBatch) {
        int4 wa[kBatch], wb[kBatch], x[kBatch];
#pragma unroll
        for (int j = 0; j < kBatch; ++j) {
            const int b = b0 + 8 * j;
            const bool ok = b < nb;
            wa[j] = ok ? __ldg(ra + 4 * b) : make_int4(0, 0, 0, 0);
            wb[j] = ok ? __ldg(rb + 4 * b) : make_int4(0, 0, 0, 0);
            x[j] = ok && g == 0 ? act[4 * b + t] : make_int4(0, 0, 0, 0);
        }
#pragma unroll
        for (int j = 0; j < kBatch; ++j) {
            const uint32_t a1[4] = {static_cast<uint32_t>(wa[j].x), static_cast<uint32_t>(wb[j].x), static_cast<uint32_t>(wa[j].y),
                                    static_cast<uint32_t>(wb[j].y)};
            const uint32_t a2[4] = {static_cast<uint32_t>(wa[j].z), static_cast<uint32_t>(wb[j].z), static_cast<uint32_t>(wa[j].w),
                                    static_cast<uint32_t>(wb[j].w)};
            mmaF16(cj[j], a1, static_cast<uint32_t>(x[j].x), static_cast<uint32_t>(x[j].y));
            mmaF16(cj[j], a2, static_cast<uint32_t>(x[j].z), static_cast<uint32_t>(x[j].w));
        }
    }
    float c[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
    for (int j = 0; j < kBatch; ++j)
#pragma unroll
        for (int k = 0; k < 4; ++k) c[k] += cj[j][k];
    __shared__ float part[8][16];
    if (t == 0) {
        part[warp][g] = c[0];
        part[warp][g + 8] = c[2];
    }
    __syncthreads();
    if (threadIdx.x < 16) {
        float sum = 0.f;
#pragma unroll
        for (int w = 0; w < 8; ++w) sum += part[w][threadIdx.x];
        if (sum == 1234.5f) sink[threadIdx.x] = __float_as_uint(sum);
    }
}

// Sense by generation: the last CTA to arrive resets the count and bumps the generation.
__device__ __forceinline__ void gridBarrier(Barrier* b, unsigned nCtas, unsigned& gen) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&b->count, 1u) == nCtas - 1) {
            b->count = 0;
            __threadfence();
            atomicExch(&b->gen, gen + 1);
        } else {
            while (*reinterpret_cast<volatile unsigned*>(&b->gen) == gen) {
            }
        }
        __threadfence();
    }
    ++gen;
    __syncthreads();
}

__global__ void __launch_bounds__(kThreads) persistentKernel(const Range* ranges, int n, Barrier* b, unsigned* sink, bool ahead) {
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    const long long me = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
    __shared__ unsigned gen0;
    if (threadIdx.x == 0) gen0 = *reinterpret_cast<volatile unsigned*>(&b->gen);
    __syncthreads();
    unsigned gen = gen0;
    uint4 acc = make_uint4(0, 0, 0, 0), first[kBatch];
    firstBatch(ranges[0], me, stride, first);
    for (int i = 0; i < n; ++i) {
        restOf(ranges[i], me, stride, first, acc);
        if (i + 1 == n) break;
        if (ahead) firstBatch(ranges[i + 1], me, stride, first);
        gridBarrier(b, gridDim.x, gen);
        if (!ahead) firstBatch(ranges[i + 1], me, stride, first);
    }
    sinkIf(acc, sink);
}

// One launch as the engine's kernels are launched (with programmatic dependent launch).
template <typename... Params, typename... Args>
void launchPdl(void (*kernel)(Params...), int grid, int block, int smem, cudaStream_t s, Args... args) {
    CHECK(hearth::cuda::launchKernel(kernel, dim3(grid), dim3(block), smem, s, args...));
}

// llama8b's matrices as row pairs (Pairs), 32 layers: Q/K/V, output, gate/up (row i of each half),
// down, with rows of `rowBytes` (4096 wide) and `downRowBytes` (14336 wide).
std::vector<Pairs> layerMatrices(uint8_t* buf, int rowBytes, int downRowBytes, size_t& total) {
    std::vector<Pairs> mats;
    size_t off = 0;
    total = 0;
    auto add = [&](int pairs, int bytesPerRow, bool halves) {
        const long long bytes = 2ll * pairs * bytesPerRow;
        mats.push_back({buf + off, pairs, bytesPerRow, halves ? static_cast<long long>(pairs) * bytesPerRow : bytesPerRow});
        off += (bytes + 255) / 256 * 256;
        total += bytes;
    };
    for (int l = 0; l < 32; ++l) {
        add(3072, rowBytes, false);
        add(2048, rowBytes, false);
        add(14336, rowBytes, true);
        add(2048, downRowBytes, false);
    }
    return mats;
}

}  // namespace

int main() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    hearth::cuda::enablePdl(0, prop.major);
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, persistentKernel, kThreads, 0));
    const int ctas = prop.multiProcessorCount * std::min(perSm, 4);
    std::printf("%s, %d SMs, L2 %d MB, %d CTAs of %d threads\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
                ctas, kThreads);

    struct Mix {
        const char* name;
        double mb[4];  // per layer: Q/K/V, output, gate/up, down
    };
    const Mix mixes[] = {{"llama8b Q4_K_M sizes", {14.2, 9.4, 66.1, 33.0}},
                         {"llama8b F16 sizes", {50.3, 33.6, 234.9, 117.4}},
                         {"empty (boundaries only)", {0, 0, 0, 0}}};
    constexpr int kLayers = 32;
    const size_t maxBytes = static_cast<size_t>(kLayers * (50.3 + 33.6 + 234.9 + 117.4) * 1e6) + (1 << 20);
    uint8_t* buf = nullptr;
    CHECK(cudaMalloc(&buf, maxBytes));
    CHECK(cudaMemset(buf, 1, maxBytes));
    unsigned* sink = nullptr;
    CHECK(cudaMalloc(&sink, kThreads * 4));
    Barrier* bar = nullptr;
    CHECK(cudaMalloc(&bar, sizeof(Barrier)));
    CHECK(cudaMemset(bar, 0, sizeof(Barrier)));
    Range* dRanges = nullptr;
    CHECK(cudaMalloc(&dRanges, sizeof(Range) * kLayers * 4));
    int4* act = nullptr;  // the dense kernels' inputs (zeros: values do not change speed)
    CHECK(cudaMalloc(&act, 28672));
    CHECK(cudaMemset(act, 0, 28672));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (const Mix& mix : mixes) {
        std::vector<Range> ranges;
        size_t off = 0, total = 0;
        for (int l = 0; l < kLayers; ++l)
            for (double mb : mix.mb) {
                const size_t bytes = static_cast<size_t>(mb * 1e6) / 16 * 16;
                ranges.push_back({reinterpret_cast<const uint4*>(buf + off), static_cast<long long>(bytes / 16)});
                off += (bytes + 255) / 256 * 256;
                total += bytes;
            }
        CHECK(cudaMemcpy(dRanges, ranges.data(), sizeof(Range) * ranges.size(), cudaMemcpyHostToDevice));
        const int n = static_cast<int>(ranges.size());
        const float kernels = graphTime(s, 20, [&] {
            for (const Range& r : ranges) launchPdl(rangeKernel, ctas, kThreads, 0, s, r, sink);
        });
        auto persistent = [&](bool ahead) {
            return timeIt(s, 20, [&] {
                persistentKernel<<<ctas, kThreads, 0, s>>>(dRanges, n, bar, sink, ahead);
                CHECK(cudaGetLastError());
            });
        };
        const float warm = persistent(true), cold = persistent(false);
        const double gb = total / 1e9;
        auto line = [&](const char* how, float ms) {
            if (total)
                std::printf("  %-38s %8.3f ms a token  %6.2f TB/s  %6.2f us a boundary over %.2f ms of streaming at 4 TB/s\n", how,
                            ms, gb / ms, (ms - gb / 4.0) * 1000.0 / n, gb / 4.0);
            else
                std::printf("  %-38s %8.3f ms a token  %6.2f us a boundary\n", how, ms, ms * 1000.0 / n);
        };
        std::printf("%s: %d ranges, %.2f GB a token\n", mix.name, n, gb);
        line("kernels (PDL, graph)", kernels);
        line("persistent, loads ahead of barrier", warm);
        line("persistent, loads after barrier", cold);
    }

    // The k-quant kernel's movement (llama8b Q4_K_M shapes: 4096-wide rows of 2304 bytes, the down
    // projection's 14336-wide rows of 8064), one launch per matrix as the engine runs them.
    {
        size_t total = 0;
        const std::vector<Pairs> mats = layerMatrices(buf, 2304, 8064, total);
        const double gb = total / 1e9;
        std::printf("k-quant movement, llama8b Q4_K_M shapes: %zu launches, %.2f GB a token\n", mats.size(), gb);
        struct Variant {
            const char* how;
            void (*kernel)(Pairs, unsigned*);
        };
        const Variant variants[] = {{"row pairs, cp.async, 2 pieces", pairCopyKernel}, {"row pairs, loads to registers", pairLoadKernel}};
        for (const Variant& v : variants) {
            const float ms = graphTime(s, 20, [&] {
                for (const Pairs& m : mats)
                    launchPdl(v.kernel, std::min((m.pairs + 3) / 4, 5 * prop.multiProcessorCount), 128, 0, s, m, sink);
            });
            std::printf("  %-38s %8.3f ms a token  %6.2f TB/s\n", v.how, ms, gb / ms);
        }
    }

    // The dense kernel's movement on llama8b F16 shapes (rows of 8192 bytes, the down projection's
    // of 28672), one launch per matrix, non-persistent as the engine's.
    {
        size_t total = 0;
        const std::vector<Pairs> mats = layerMatrices(buf, 8192, 28672, total);
        const double gb = total / 1e9;
        std::printf("dense movement, llama8b F16 shapes: %zu launches, %.2f GB a token\n", mats.size(), gb);
        using K = void (*)(Pairs, const int4*, unsigned*);
        struct Variant {
            const char* how;
            K kernel;
            bool staged, mma;
        };
        const Variant variants[] = {
            {"two rows a warp, 4 loads, arithmetic", denseRowsKernel<4, true>, false, false},
            {"two rows a warp, 4 loads, none", denseRowsKernel<4, false>, false, false},
            {"two rows a warp, 8 loads, none", denseRowsKernel<8, false>, false, false},
            {"two rows a warp, 8 loads, arithmetic", denseRowsKernel<8, true>, false, false},
            {"4 loads, arithmetic, staged inputs", denseRowsKernel<4, true, true>, true, false},
            {"4 loads, arithmetic, 4 sums a row", denseRowsKernel<4, true, false, true>, false, false},
            {"4 loads, arithmetic, 12 CTAs/SM", denseRowsKernel<4, true, false, false, false, 12>, false, false},
            {"2 loads, arithmetic, 16 CTAs/SM", denseRowsKernel<2, true, false, false, false, 16>, false, false},
            {"4 loads, arithmetic, no L1 allocation", denseRowsKernel<4, true, false, false, true>, false, false},
            {"4 loads, none, no L1 allocation", denseRowsKernel<4, false, false, false, true>, false, false},
            {"16 rows a CTA, MMAs, 4 blocks", mmaRowsKernel<4>, false, true},
        };
        for (const Variant& v : variants) {
            const float ms = graphTime(s, 10, [&] {
                for (const Pairs& m : mats)
                    launchPdl(v.kernel, v.mma ? (2 * m.pairs + 15) / 16 : (m.pairs + 3) / 4, v.mma ? 256 : 128,
                              v.staged ? m.rowBytes : 0, s, m, static_cast<const int4*>(act), sink);
            });
            std::printf("  %-38s %8.3f ms a token  %6.2f TB/s\n", v.how, ms, gb / ms);
        }
    }
    return 0;
}
