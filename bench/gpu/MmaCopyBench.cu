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
//    inputs, as bulk copies, and the eight others wait on per-stage full / empty mbarriers;
//  - the tensor-map forms (mmaTileTmaKernel): a stage is five TMA box copies (the weight tile, four
//    swizzled input atoms) issued by one thread, either after the kernels' CTA barrier or by a
//    producer warp on full / empty mbarriers;
//  - "math": each stage is held ~1500 clocks after it landed (emulateMath), about a CTA's arithmetic
//    for a K step, to see how each form overlaps the copies with it.
// Each step every thread reads a word of the stage, so the copies cannot be dropped.
//
// Built as hearth-mma-copy-bench with the CUDA backend (bench/CMakeLists.txt; no engine code but
// its launch helper, kernels/Launch.cuh). On the GPU machine: pack it (PACK_BINS="test_cuda
// hearth-gpu-bench hearth-mma-copy-bench" bench/gpu/pack.sh BUILD_DIR) and run device-run.sh with
// HEARTH_MMA_COPY=1 (its output: mma-copy.log); or build it there: nvcc -O3 -std=c++17 -arch=sm_90
// -I engine/src bench/gpu/MmaCopyBench.cu engine/src/cuda/kernels/Launch.cu -o /tmp/mma-copy-bench.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

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
    int spin;  // clock cycles of emulated arithmetic a CTA spends on each stage after reading it
};

// The arithmetic's time without its instructions: a stage is held `cycles` clocks after it landed.
__device__ __forceinline__ void emulateMath(int cycles) {
    if (cycles <= 0) return;
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

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
        emulateMath(m.spin);
    }
    if (acc == 0x9E3779B9u) sink[tid] = acc;
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
        emulateMath(m.spin);
        __syncwarp();
        if (lane == 0) barArrive(sharedAddr(&empty[st]));
    }
    if (acc == 0x9E3779B9u) sink[tid] = acc;
}

// The tensor-map forms: a stage's weights are one TMA box (128 rows x 144 bytes, rows past the
// matrix zero-filled) and its inputs four (64 f16 of K x 64 tokens, 128-byte swizzled, as the
// warpgroup kernel's B tiles), each one instruction of one thread, completing on the stage's full
// mbarrier. kProducer: a ninth warp issues them once the eight consumer warps have released the
// stage (its empty mbarrier), with no CTA-wide barrier; else thread 0 issues them after the
// kernels' CTA barrier, as now.
constexpr int kTmaWTile = kRowsPerCta * kSpan;  // 18,432 bytes, a multiple of 1024

template <bool kInputs>
struct TmaStageBytes {
    static constexpr int kValue = kTmaWTile + (kInputs ? kXTile : 0);
};

template <int kStages, bool kInputs, bool kProducer>
__global__ void __launch_bounds__(kProducer ? 288 : 256) mmaTileTmaKernel(const __grid_constant__ CUtensorMap wMap,
                                                                        const __grid_constant__ CUtensorMap xMap, Matrix m,
                                                                        unsigned* sink) {
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ __align__(8) uint64_t full[kStages], empty[kStages];
    constexpr int kStage = TmaStageBytes<kInputs>::kValue;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const CtaWork wk(m);
    const int ks0 = wk.ks0, nk = wk.nk, row0 = wk.row0;
    const uint32_t base = sharedAddr(smem);
    if (base & 1023u) __trap();  // the swizzle is on address bits
    if (tid < kStages) {
        barInit(sharedAddr(&full[tid]));
        barInit(sharedAddr(&empty[tid]), 8);
    }
    barFenceInit();
    __syncthreads();
    // Step ks into stage st; the inputs only after pdlWait() (the previous kernel writes them).
    auto issueW = [&](int ks, int st) {
        const uint32_t bar = sharedAddr(&full[st]);
        barExpect(bar, static_cast<uint32_t>(kStage));
        tensorCopy2d(base + static_cast<uint32_t>(st * kStage), &wMap, ks * kSpan, row0, bar);
    };
    auto issueX = [&](int ks, int st) {
        if (!kInputs) return;
        const uint32_t bar = sharedAddr(&full[st]), dst = base + static_cast<uint32_t>(st * kStage + kTmaWTile);
        for (int a = 0; a < 4; ++a) tensorCopy2d(dst + a * 8192, &xMap, ks * 256 + 64 * a, 0, bar);
    };
    const bool issuer = kProducer ? tid == 256 : tid == 0;
    if (issuer && nk > 0) issueW(ks0, 0);
    pdlWait();
    pdlTrigger();
    if (issuer) {
        if (nk > 0) issueX(ks0, 0);
        for (int i = 1; i < (kProducer ? kStages : kStages - 1) && i < nk; ++i) {
            issueW(ks0 + i, i);
            issueX(ks0 + i, i);
        }
    }
    if (kProducer && warp == 8) {
        if (lane == 0)
            for (int i = kStages; i < nk; ++i) {
                const int st = i % kStages;
                barWait(sharedAddr(&empty[st]), static_cast<uint32_t>((i / kStages - 1) & 1));
                issueW(ks0 + i, st);
                issueX(ks0 + i, st);
            }
        return;
    }
    unsigned acc = 0;
    for (int i = 0; i < nk; ++i) {
        const int st = i % kStages;
        barWait(sharedAddr(&full[st]), static_cast<uint32_t>((i / kStages) & 1));
        if (!kProducer) {
            __syncthreads();  // no one still reads step i - 1's stage
            if (tid == 0 && i + kStages - 1 < nk) {
                issueW(ks0 + i + kStages - 1, (i + kStages - 1) % kStages);
                issueX(ks0 + i + kStages - 1, (i + kStages - 1) % kStages);
            }
        }
        acc ^= reinterpret_cast<const unsigned*>(smem + st * kStage)[(tid * 37) % (kStage / 4)];
        emulateMath(m.spin);
        if (kProducer) {
            __syncwarp();
            if (lane == 0) barArrive(sharedAddr(&empty[st]));
        }
    }
    if (acc == 0x9E3779B9u) sink[tid] = acc;
}

using PlainKernel = void (*)(Matrix, const uint8_t*, unsigned*);
using TmaKernel = void (*)(CUtensorMap, CUtensorMap, Matrix, unsigned*);

struct Variant {
    const char* how;
    PlainKernel kernel;  // or, null, the tensor-map kernel
    TmaKernel tmaKernel;
    int smem, threads, spin;
};

template <int kStages, bool kInputs, bool kBulk>
Variant variant(const char* how, int spin = 0) {
    return {how, mmaTileCopyKernel<kStages, kInputs, kBulk>, nullptr, kStages * StageBytes<kInputs>::kValue, 256, spin};
}

template <int kStages, bool kInputs>
Variant producerVariant(const char* how) {
    return {how, mmaTileProducerKernel<kStages, kInputs>, nullptr, kStages * StageBytes<kInputs>::kValue, 288, 0};
}

template <int kStages, bool kInputs, bool kProducer>
Variant tmaVariant(const char* how, int spin = 0) {
    return {how, nullptr, mmaTileTmaKernel<kStages, kInputs, kProducer>, kStages * TmaStageBytes<kInputs>::kValue,
            kProducer ? 288 : 256, spin};
}

// cuTensorMapEncodeTiled through the runtime (no link to the driver library).
PFN_cuTensorMapEncodeTiled_v12000 tensorMapEncoder() {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !fn) {
        std::fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
        std::exit(1);
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

// A 2-D map of `rows` rows of `inner` elements (row pitch `pitch` bytes) read in boxes of boxInner x boxRows.
CUtensorMap tensorMap(PFN_cuTensorMapEncodeTiled_v12000 encode, const void* base, CUtensorMapDataType type, uint64_t inner,
                      uint64_t rows, uint64_t pitch, uint32_t boxInner, uint32_t boxRows, CUtensorMapSwizzle swizzle) {
    CUtensorMap map{};
    const cuuint64_t dims[2] = {inner, rows}, strides[1] = {pitch};
    const cuuint32_t box[2] = {boxInner, boxRows}, elementStrides[2] = {1, 1};
    const CUresult r = encode(&map, type, 2, const_cast<void*>(base), dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
        std::exit(1);
    }
    return map;
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
            mats.push_back({buf + off, sh.rows, sh.rowBytes, sh.splits, 0});
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
    // The tensor maps: a matrix's weights in 128-row x 144-byte boxes, the inputs of each width in
    // 64 x 64 f16 boxes, 128-byte swizzled.
    const auto encode = tensorMapEncoder();
    std::vector<CUtensorMap> wMaps, xMaps;
    for (const Matrix& m : mats) {
        const int cols = m.rowBytes / kSpan * 256;
        wMaps.push_back(tensorMap(encode, m.w, CU_TENSOR_MAP_DATA_TYPE_UINT8, m.rowBytes, m.rows, m.rowBytes, kSpan, kRowsPerCta,
                                  CU_TENSOR_MAP_SWIZZLE_NONE));
        xMaps.push_back(tensorMap(encode, x, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, cols, 64, 2ull * cols, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B));
    }
    // kSpin: about a 64-token K step's arithmetic for one CTA (32 warpgroup MMAs of 32 clocks, plus
    // the dequantization), to see how each form overlaps copies with it.
    constexpr int kSpin = 1500;
    const Variant variants[] = {
        variant<2, true, false>("cp.async, inputs, 2 stages (kernels)"),
        variant<2, false, false>("cp.async, no inputs, 2 stages"),
        variant<4, false, false>("cp.async, no inputs, 4 stages"),
        variant<2, true, true>("bulk rows, inputs, 2 stages"),
        variant<2, false, true>("bulk rows, no inputs, 2 stages"),
        variant<4, false, true>("bulk rows, no inputs, 4 stages"),
        producerVariant<2, true>("producer warp, inputs, 2 stages"),
        producerVariant<2, false>("producer warp, no inputs, 2 stages"),
        tmaVariant<2, true, false>("tensor maps, inputs, 2 stages"),
        tmaVariant<2, false, false>("tensor maps, no inputs, 2 stages"),
        tmaVariant<4, false, false>("tensor maps, no inputs, 4 stages"),
        tmaVariant<2, true, true>("tensor-map producer, inputs, 2 stages"),
        tmaVariant<3, true, true>("tensor-map producer, inputs, 3 stages"),
        tmaVariant<4, true, true>("tensor-map producer, inputs, 4 stages"),
        tmaVariant<4, false, true>("tensor-map producer, no inputs, 4 stages"),
        tmaVariant<8, false, true>("tensor-map producer, no inputs, 8 stages"),
        variant<2, true, false>("cp.async, inputs, 2 stages, math", kSpin),
        variant<2, true, true>("bulk rows, inputs, 2 stages, math", kSpin),
        tmaVariant<2, true, false>("tensor maps, inputs, 2 stages, math", kSpin),
        tmaVariant<2, true, true>("tensor-map producer, inputs, 2, math", kSpin),
        tmaVariant<3, true, true>("tensor-map producer, inputs, 3, math", kSpin),
        tmaVariant<4, true, true>("tensor-map producer, inputs, 4, math", kSpin),
    };
    for (const Variant& v : variants) {
        const void* k = v.kernel ? reinterpret_cast<const void*>(v.kernel) : reinterpret_cast<const void*>(v.tmaKernel);
        CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem));
        int perSm = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, v.threads, v.smem));
        const float ms = graphTime(s, 10, [&] {
            for (size_t i = 0; i < mats.size(); ++i) {
                Matrix m = mats[i];
                m.spin = v.spin;
                const dim3 grid((m.rows + kRowsPerCta - 1) / kRowsPerCta, m.splits);
                if (v.kernel) CHECK(launchKernel(v.kernel, grid, dim3(v.threads), v.smem, s, m, static_cast<const uint8_t*>(x), sink));
                else CHECK(launchKernel(v.tmaKernel, grid, dim3(v.threads), v.smem, s, wMaps[i], xMaps[i], m, sink));
            }
        });
        std::printf("  %-42s %d CTAs/SM  %8.3f ms a step  %6.2f TB/s\n", v.how, perSm, ms, gb / ms);
    }
    return 0;
}
