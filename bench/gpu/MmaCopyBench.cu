// How fast the tensor-core matrix kernels' way of moving weights can go, without their arithmetic:
// at 64 sequences (llama8b Q4_K_M) those kernels copy their weights at 1.5-2.2 TB/s even with the
// arithmetic switched off (docs/benchmarks.md, nineteenth session), where a plain stream reaches
// ~3.7 TB/s. This program moves a step's Q4_K_M weights (32 layers: Q/K/V, output, gate/up, down)
// in the kernels' shape, one launch per matrix with the engine's grids at 64 tokens, and varies only
// how the copies are issued:
//  - the kernels' form: a CTA of 256 threads owns 128 rows and walks its K range (a split of it) in
//    steps of 144 bytes a row (256 elements), `kStages` steps in a ring of shared-memory stages,
//    each step 16-byte cp.async copies by every thread, a wait on them and a CTA barrier;
//  - kInputs: every stage also takes the 64 tokens' f16 inputs of the step (32 KB, by cp.async,
//    from a buffer that stays in L2), as the kernels' stages do;
//  - kBulk: the weights come by one bulk copy per row (threads 0..127), completing on the stage's
//    mbarrier, instead of the 16-byte copies;
//  - the warp-specialized form (mmaTileProducerKernel): a ninth warp issues every copy, weights and
//    inputs, as bulk copies, and the eight others wait on per-stage full / empty mbarriers.
// Each step every thread reads a word of the stage, so the copies cannot be dropped.
//
// Built as hearth-mma-copy-bench with the CUDA backend (bench/CMakeLists.txt; no engine code but
// its launch helper, kernels/Launch.cuh). On the GPU machine: pack it (PACK_BINS="test_cuda
// hearth-gpu-bench hearth-mma-copy-bench" bench/gpu/pack.sh BUILD_DIR) and run device-run.sh with
// HEARTH_MMA_COPY=1 (its output: mma-copy.log); or build it there: nvcc -O3 -std=c++17 -arch=sm_90
// -I engine/src bench/gpu/MmaCopyBench.cu engine/src/cuda/kernels/Launch.cu -o /tmp/mma-copy-bench.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "BenchTiming.cuh"
#include "cuda/kernels/AsyncCopy.cuh"
#include "cuda/kernels/Launch.cuh"

namespace {

using namespace hearth::cuda;

constexpr int kRowsPerCta = 128, kSpan = 144, kLd = 160, kWTile = kRowsPerCta * kLd, kXTile = 64 * 512;

struct Matrix {
    const uint8_t* w;
    int rows, rowBytes, splits;
};

// A CTA's share of a launch, as MmaCta.cuh divides it: 128 rows (blockIdx.x), K split blockIdx.y.
struct CtaWork {
    int ks0, nk, row0, rowsHere;
    __device__ __forceinline__ explicit CtaWork(const Matrix& m) {
        const int kSteps = m.rowBytes / kSpan;
        ks0 = static_cast<int>(static_cast<int64_t>(kSteps) * blockIdx.y / gridDim.y);
        nk = static_cast<int>(static_cast<int64_t>(kSteps) * (blockIdx.y + 1) / gridDim.y) - ks0;
        row0 = blockIdx.x * kRowsPerCta;
        rowsHere = min(kRowsPerCta, m.rows - row0);
    }
};

template <bool kInputs>
struct StageBytes {
    static constexpr int kValue = kWTile + (kInputs ? kXTile : 0);
};

template <int kStages, bool kInputs, bool kBulk>
__global__ void __launch_bounds__(256) mmaTileCopyKernel(Matrix m, const uint8_t* x, unsigned* sink) {
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ __align__(8) uint64_t bars[kStages];
    constexpr int kStage = StageBytes<kInputs>::kValue;
    const int tid = threadIdx.x;
    const CtaWork wk(m);
    const int ks0 = wk.ks0, nk = wk.nk, row0 = wk.row0, rowsHere = wk.rowsHere;
    const uint32_t base = sharedAddr(smem);
    if (kBulk) {
        if (tid < kStages) barInit(sharedAddr(&bars[tid]));
        barFenceInit();
        __syncthreads();
    }
    const int xRowBytes = m.rowBytes / kSpan * 512;  // a token's f16 inputs: 512 bytes a step
    auto issue = [&](int ks, int st) {
        const uint32_t dst = base + static_cast<uint32_t>(st * kStage);
        if (kBulk) {
            const uint32_t bar = sharedAddr(&bars[st]);
            if (tid == 0) barExpect(bar, static_cast<uint32_t>(rowsHere * kSpan));
            if (tid < rowsHere)
                bulkCopy(dst + tid * kLd, m.w + static_cast<int64_t>(row0 + tid) * m.rowBytes + static_cast<int64_t>(ks) * kSpan, kSpan, bar);
        } else {
            for (int task = tid; task < kRowsPerCta * (kSpan / 16); task += 256) {
                const int slot = task / (kSpan / 16), c = task - slot * (kSpan / 16);
                cpAsync16If(dst + slot * kLd + 16 * c,
                            m.w + static_cast<int64_t>(row0 + slot) * m.rowBytes + static_cast<int64_t>(ks) * kSpan + 16 * c,
                            slot < rowsHere);
            }
        }
        if (kInputs) {
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const int token = (tid >> 5) + 8 * i, chunk = tid & 31;
                cpAsync16If(dst + kWTile + token * 512 + 16 * chunk, x + static_cast<int64_t>(token) * xRowBytes + ks * 512 + 16 * chunk,
                            true);
            }
        }
        cpCommit();
    };
    if (nk > 0) issue(ks0, 0);
    else cpCommit();
    pdlWait();
    pdlTrigger();
    for (int i = 1; i < kStages - 1; ++i) {
        if (i < nk) issue(ks0 + i, i);
        else cpCommit();
    }
    unsigned acc = 0;
    for (int i = 0; i < nk; ++i) {
        const int st = i % kStages;
        cpWaitPending(kStages - 2);
        if (kBulk) barWait(sharedAddr(&bars[st]), static_cast<uint32_t>((i / kStages) & 1));
        __syncthreads();
        if (i + kStages - 1 < nk) issue(ks0 + i + kStages - 1, (i + kStages - 1) % kStages);
        else cpCommit();
        acc ^= reinterpret_cast<const unsigned*>(smem + st * kStage)[(tid * 37) % (kStage / 4)];
    }
    if (acc == 0x9E3779B9u) sink[tid] = acc;
}

__device__ __forceinline__ void barArrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// The warp-specialized form: a producer warp (warp 8) issues every copy as bulk copies, a stage at
// a time once the consumers have released it (the inputs too, a token's 512 bytes a copy); the 8
// consumer warps wait on the stage's full barrier, read it and release it (one arrival per warp on
// its empty barrier). No CTA-wide barrier and no consumer-issued copy.
template <int kStages, bool kInputs>
__global__ void __launch_bounds__(288) mmaTileProducerKernel(Matrix m, const uint8_t* x, unsigned* sink) {
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ __align__(8) uint64_t full[kStages], empty[kStages];
    constexpr int kStage = StageBytes<kInputs>::kValue;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const CtaWork wk(m);
    const int ks0 = wk.ks0, nk = wk.nk, row0 = wk.row0, rowsHere = wk.rowsHere;
    const uint32_t base = sharedAddr(smem);
    if (tid < kStages) {
        barInit(sharedAddr(&full[tid]));
        barInit(sharedAddr(&empty[tid]), 8);
    }
    barFenceInit();
    __syncthreads();
    if (warp == 8) {
        const int xRowBytes = m.rowBytes / kSpan * 512;
        for (int i = 0; i < nk; ++i) {
            const int st = i % kStages, ks = ks0 + i;
            if (i >= kStages) barWait(sharedAddr(&empty[st]), static_cast<uint32_t>((i / kStages - 1) & 1));
            const uint32_t bar = sharedAddr(&full[st]), dst = base + static_cast<uint32_t>(st * kStage);
            if (lane == 0) barExpect(bar, static_cast<uint32_t>(rowsHere * kSpan + (kInputs ? 64 * 512 : 0)));
            __syncwarp();
            for (int r = lane; r < rowsHere; r += 32)
                bulkCopy(dst + r * kLd, m.w + static_cast<int64_t>(row0 + r) * m.rowBytes + static_cast<int64_t>(ks) * kSpan, kSpan, bar);
            if (i == 0) {  // the weights before the wait, the inputs (the previous kernel's output) after it
                pdlWait();
                pdlTrigger();
            }
            if (kInputs)
                for (int t = lane; t < 64; t += 32) bulkCopy(dst + kWTile + t * 512, x + static_cast<int64_t>(t) * xRowBytes + ks * 512, 512, bar);
        }
        if (nk == 0) {
            pdlWait();
            pdlTrigger();
        }
        return;
    }
    unsigned acc = 0;
    for (int i = 0; i < nk; ++i) {
        const int st = i % kStages;
        barWait(sharedAddr(&full[st]), static_cast<uint32_t>((i / kStages) & 1));
        acc ^= reinterpret_cast<const unsigned*>(smem + st * kStage)[(tid * 37) % (kStage / 4)];
        __syncwarp();
        if (lane == 0) barArrive(sharedAddr(&empty[st]));
    }
    if (acc == 0x9E3779B9u) sink[tid] = acc;
}

struct Variant {
    const char* how;
    void (*kernel)(Matrix, const uint8_t*, unsigned*);
    int smem, threads;
};

template <int kStages, bool kInputs, bool kBulk>
Variant variant(const char* how) {
    return {how, mmaTileCopyKernel<kStages, kInputs, kBulk>, kStages * StageBytes<kInputs>::kValue, 256};
}

template <int kStages, bool kInputs>
Variant producerVariant(const char* how) {
    return {how, mmaTileProducerKernel<kStages, kInputs>, kStages * StageBytes<kInputs>::kValue, 288};
}

}  // namespace

int main() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    enablePdl(0, prop.major);
    // llama8b Q4_K_M at 64 tokens, as LinearOps launches it: Q/K/V (6144 rows) 48 CTAs x 5 splits,
    // output 32 x 8, the gate/up pair (2 x 14336 rows) 224 x 1, down (14336 wide) 32 x 8.
    struct Shape {
        int rows, rowBytes, splits;
    };
    const Shape layer[] = {{6144, 2304, 5}, {4096, 2304, 8}, {28672, 2304, 1}, {4096, 8064, 8}};
    std::vector<Matrix> mats;
    size_t total = 0;
    for (int l = 0; l < 32; ++l)
        for (const Shape& sh : layer) total += (static_cast<size_t>(sh.rows) * sh.rowBytes + 255) / 256 * 256;
    uint8_t* buf = nullptr;
    CHECK(cudaMalloc(&buf, total));
    CHECK(cudaMemset(buf, 1, total));
    size_t off = 0;
    for (int l = 0; l < 32; ++l)
        for (const Shape& sh : layer) {
            mats.push_back({buf + off, sh.rows, sh.rowBytes, sh.splits});
            off += (static_cast<size_t>(sh.rows) * sh.rowBytes + 255) / 256 * 256;
        }
    uint8_t* x = nullptr;
    CHECK(cudaMalloc(&x, 64 * 28672));
    CHECK(cudaMemset(x, 0, 64 * 28672));
    unsigned* sink = nullptr;
    CHECK(cudaMalloc(&sink, 256 * 4));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const double gb = total / 1e9;
    std::printf("%s, %d SMs: llama8b Q4_K_M weights at 64 tokens, %zu launches, %.2f GB a step\n", prop.name,
                prop.multiProcessorCount, mats.size(), gb);
    const Variant variants[] = {
        variant<2, true, false>("cp.async, inputs, 2 stages (kernels)"),
        variant<2, false, false>("cp.async, no inputs, 2 stages"),
        variant<4, false, false>("cp.async, no inputs, 4 stages"),
        variant<2, true, true>("bulk rows, inputs, 2 stages"),
        variant<2, false, true>("bulk rows, no inputs, 2 stages"),
        variant<4, false, true>("bulk rows, no inputs, 4 stages"),
        producerVariant<2, true>("producer warp, inputs, 2 stages"),
        producerVariant<3, true>("producer warp, inputs, 3 stages"),
        producerVariant<2, false>("producer warp, no inputs, 2 stages"),
        producerVariant<4, false>("producer warp, no inputs, 4 stages"),
    };
    for (const Variant& v : variants) {
        CHECK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem));
        int perSm = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, v.kernel, v.threads, v.smem));
        const float ms = graphTime(s, 10, [&] {
            for (const Matrix& m : mats)
                CHECK(launchKernel(v.kernel, dim3((m.rows + kRowsPerCta - 1) / kRowsPerCta, m.splits), dim3(v.threads), v.smem, s, m,
                                   static_cast<const uint8_t*>(x), sink));
        });
        std::printf("  %-40s %d CTAs/SM  %8.3f ms a step  %6.2f TB/s\n", v.how, perSm, ms, gb / ms);
    }
    return 0;
}
