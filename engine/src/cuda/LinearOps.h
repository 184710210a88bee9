#pragma once
// Y = X · Wᵀ for a stage's weight matrices, choosing the path by the number of rows in X:
//  - up to gemvLimit(type) rows (kGemvMaxT; kDenseGemvMaxT for F32/F16/BF16; kDecodeGemvMaxT in
//    decode steps, one token per sequence; kVerifyGemvMaxT in verification steps: setStepKind):
//    the fused dequant matrix-vector kernels, the input quantized (or
//    converted) once for every matrix that shares it, matrices of one type fused in one launch,
//    the residual add and the SwiGLU product fused into the epilogue;
//  - up to kMmaMaxT rows of quantized weights: the same input rounding written as f16, weights
//    dequantized to f16 in registers by the fused tensor-core kernel (read once, in GGUF form;
//    matrices of one type sharing the input in one launch, the SwiGLU product in its epilogue);
//  - more rows: the same input rounding written as f16 (bf16 / f32 for those weight types),
//    quantized weights dequantized to f16 in row chunks, cuBLAS GEMM with f32 accumulation
//    (beta = 1 for the residual add).
// An optional RMSNorm of X is fused into the input preparation. In the batch-invariant mode every
// row count takes the first path (8-token slices of one launch).
//
// Invariants: buffers are sized for `maxRows` rows of up to `maxCols` columns at init(); a call
// with more is refused (the stage re-inits with larger sizes first); all work is enqueued on the
// given stream and nothing synchronizes, so calls can be captured in a CUDA graph.

#include <cublas_v2.h>

#include <span>

#include "cuda/DeviceBuffer.h"
#include "cuda/DeviceCaps.h"
#include "cuda/DeviceWeights.h"
#include "cuda/KernelParams.h"

namespace hearth::cuda {

struct Projection {
    const DevTensor* w;
    float* y;
    int ldy;           // row stride of y (floats)
    bool accumulate;   // y += W x
    int ropeRole = -1; // with a fused RoPE: 0 Q, 1 K, 2 V (see project)
};

struct LinearInput {
    const float* x;
    int64_t ldx;
    int rows;                           // rows of X to use
    int cols;
    const int32_t* rowIndex = nullptr;  // gather: X row rowIndex[r] (device)
    const float* normW = nullptr;       // RMSNorm weight (device), or null
    float eps = 0;
};

class LinearOps {
public:
    LinearOps() = default;
    ~LinearOps();
    LinearOps(const LinearOps&) = delete;
    LinearOps& operator=(const LinearOps&) = delete;

    Status init(int maxRows, int maxCols, uint64_t dequantBytes, cudaStream_t stream, const DeviceCaps& caps);
    int maxRows() const { return maxRows_; }
    // On: every product goes through the matrix-vector kernels, so a row's result is bit-identical
    // whatever else shares the step (slower for prefill-sized steps).
    void setBatchInvariant(bool on) { batchInvariant_ = on; }
    // What the step is, for the choice of kernels: Decode (one token per sequence): quantized
    // weights take the tensor-core kernel and dense ones cuBLAS from kDecodeGemvMaxT + 1 tokens on;
    // Verify (every token a logit row, some sequence with several: speculative verification): the
    // matrix-vector kernels up to kVerifyGemvMaxT tokens (quantized weights), in 8-token slices,
    // so each token is scored exactly as a one-token decode step scores it and speculation never
    // changes a greedy output (HEARTH_CUDA_VERIFY_GEMV_MAX_T=2 puts 3+ tokens on the tensor-core
    // kernel instead, for measuring: docs/benchmarks.md); Prefill: up to kGemvMaxT tokens
    // (kDenseGemvMaxT dense).
    enum class StepKind { Prefill, Decode, Verify };
    void setStepKind(StepKind k) { stepKind_ = k; }
    uint64_t bytes() const;

    // Up to three projections of one input. With `rope` (Q, K and V, each projection's ropeRole
    // set; a RoPE the epilogue can run, see GemvParams::rope): when every projection takes the
    // matrix-vector kernels, RoPE and the KV store run in their epilogue and *fused is set;
    // otherwise the outputs are plain and the caller runs ropeStoreKernel.
    Status project(const LinearInput& in, std::span<const Projection> projs, const RopeStoreParams* rope = nullptr,
                   bool* fused = nullptr);
    // out = silu(gate · x) * (up · x); upScratch: rows × up.rows floats (used when not fused).
    Status gatedFfn(const LinearInput& in, const DevTensor& gate, const DevTensor& up, float* out, float* upScratch);

    static int gemvFormat(int type);
    int gemvLimit(int type) const;  // most rows the matrix-vector kernels take for this weight type
    static int gemmFormat(int type);

private:
    bool useGemv(int rows, const DevTensor& w) const;
    bool mmaTakes(int rows, const DevTensor& w) const;  // the tensor-core kernel can run this shape
    // unitOrder: FQ8 values in MMA unit order, for the warpgroup kernel only (ActPrepParams).
    Status prepare(const LinearInput& in, int fmt, bool unitOrder = false);
    Result<ActPrepParams> prepParams(const LinearInput& in, int fmt) const;
    // The dense decode product would take its input unprepared (GemvParams::fusedPrep).
    bool fusesPrep(const LinearInput& in, const DevTensor& w) const;
    bool streamsNext(const LinearInput& in, const DevTensor& w) const;  // a streamed dense product takes it
    // prep: the input's preparation when the launch does it itself (fusesPrep), else null.
    Status gemv(const LinearInput& in, std::span<const Projection> projs, int mode, float* pairOut,
                const RopeStoreParams* rope = nullptr, const ActPrepParams* prep = nullptr);
    Status gemm(const LinearInput& in, const Projection& p);
    bool mmaEligible(const LinearInput& in, const DevTensor& w) const;
    // Projections of one type and width (mode 0/1), or the gate/up pair (mode 2, into pairOut).
    // The warpgroup kernel takes this product (its inputs then need MMA unit order).
    bool wgmmaRuns(int rows, const DevTensor& w) const;
    // unitOrder: the prepared inputs are in MMA unit order; each projection then runs on the
    // warpgroup or the integer kernel (which reads the int8 form).
    Status mma(const LinearInput& in, std::span<const Projection> projs, int mode, float* pairOut, bool unitOrder);
    const void* denseInput(int fmt) const;

    int maxRows_ = 0, maxCols_ = 0;
    DeviceCaps caps_;
    bool batchInvariant_ = false;
    int gemvRowsPerWarp_ = 2;
    bool stageInput_ = true;  // GemvParams::stageInput (HEARTH_CUDA_NO_STAGED_INPUT=1: off, for measuring and tests)
    int streamStages_ = 4;    // GemvParams::streamStages (HEARTH_CUDA_STREAM_STAGES, measuring)
    int streamMaxCtas_ = 0;   // GemvParams::streamMaxCtas (HEARTH_CUDA_STREAM_MAX_CTAS, tests)
    int fusePrep_ = 2;        // fusesPrep: HEARTH_CUDA_FUSED_PREP=0 never, 1 without a norm, 2 always (measuring, tests)
    StepKind stepKind_ = StepKind::Prefill;
    int forcedGemvMaxT_ = 0;  // HEARTH_CUDA_GEMV_MAX_T (measuring, tests): this limit for every quantized step
    int verifyGemvMaxT_ = kVerifyGemvMaxT;  // HEARTH_CUDA_VERIFY_GEMV_MAX_T (measuring)
    bool bulkWeights_ = true;  // MmaParams::bulkWeights (HEARTH_CUDA_MMA_BULK=0: the cp.async copies, measuring and tests)
    cudaStream_t stream_ = nullptr;
    cublasHandle_t blas_ = nullptr;
    DeviceBuffer actQ_, actScale_, actSum_, actHalf_, actF32_, dequant_, workspace_, partial_;
};

}  // namespace hearth::cuda
