#include "cuda/LinearOps.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "cuda/MeasureSkips.h"

namespace hearth::cuda {
namespace {

int alignmentOf(int64_t rowBytes) {
    if (rowBytes % 16 == 0) return 16;
    if (rowBytes % 8 == 0) return 8;
    if (rowBytes % 4 == 0) return 4;
    return 2;
}

bool isKQuant(int t) { return t >= 10 && t <= 14; }
bool isDense(int t) { return t == 0 || t == 1 || t == 30; }  // F32, F16, BF16

}  // namespace

LinearOps::~LinearOps() {
    if (blas_) cublasDestroy(blas_);
}

uint64_t LinearOps::bytes() const {
    return actQ_.size() + actScale_.size() + actSum_.size() + actHalf_.size() + actF32_.size() + dequant_.size() +
           workspace_.size() + partial_.size();
}

Status LinearOps::init(int maxRows, int maxCols, uint64_t dequantBytes, cudaStream_t stream, const DeviceCaps& caps) {
    stream_ = stream;
    caps_ = caps;
    if (const char* v = std::getenv("HEARTH_CUDA_GEMV_ROWS")) gemvRowsPerWarp_ = std::atoi(v) == 1 ? 1 : 2;
    stageInput_ = std::getenv("HEARTH_CUDA_NO_STAGED_INPUT") == nullptr;
    if (const char* v = std::getenv("HEARTH_CUDA_STREAM_STAGES")) streamStages_ = std::atoi(v);
    if (const char* v = std::getenv("HEARTH_CUDA_STREAM_MAX_CTAS")) streamMaxCtas_ = std::max(0, std::atoi(v));
    if (const char* v = std::getenv("HEARTH_CUDA_FUSED_PREP")) fusePrep_ = std::atoi(v);
    if (const char* v = std::getenv("HEARTH_CUDA_GEMV_MAX_T")) forcedGemvMaxT_ = std::clamp(std::atoi(v), 1, kGemvMaxT);
    if (const char* v = std::getenv("HEARTH_CUDA_VERIFY_GEMV_MAX_T")) verifyGemvMaxT_ = std::clamp(std::atoi(v), 1, 2 * kGemvMaxT);
    if (caps_.tensorCores && !partial_.size()) HEARTH_TRY(partial_.allocate(16ull << 20, "split-K partial sums"));
    if (const char* v = std::getenv("HEARTH_CUDA_MMA_BULK")) bulkWeights_ = std::atoi(v) != 0;
    maxRows_ = maxRows;
    maxCols_ = maxCols;
    const uint64_t n = static_cast<uint64_t>(maxRows) * maxCols;
    HEARTH_TRY(actQ_.allocate(n, "activations"));
    HEARTH_TRY(actScale_.allocate(n / 32 * 4 + 16, "activation scales"));
    HEARTH_TRY(actSum_.allocate(n / 32 * 4 + 16, "activation sums"));
    HEARTH_TRY(actHalf_.allocate(n * 2, "activations"));
    HEARTH_TRY(actF32_.allocate(n * 4, "activations"));
    if (dequant_.size() < dequantBytes) HEARTH_TRY(dequant_.allocate(dequantBytes, "dequantized weights"));
    if (!blas_) {
        HEARTH_CUBLAS_TRY(cublasCreate(&blas_));
        // A fixed workspace keeps cuBLAS from allocating during graph capture.
        HEARTH_TRY(workspace_.allocate(32ull << 20, "cuBLAS workspace"));
        HEARTH_CUBLAS_TRY(cublasSetWorkspace(blas_, workspace_.data(), workspace_.size()));
    }
    HEARTH_CUBLAS_TRY(cublasSetStream(blas_, stream_));
    return Status::success();
}

int LinearOps::gemvLimit(int t) const {
    // Dense weights: the matrix-vector kernel's per-token cost grows quickly (every weight is one
    // FMA per token), so cuBLAS takes over earlier; measured on the H200 with F16 at 8 tokens.
    // In decode steps cuBLAS from 3 tokens on, as the quantized types' tensor-core kernel (H200,
    // llama8b F16: 3 sequences 9.1 ms a step through the matrix-vector kernel, 8 through cuBLAS 5.5).
    if (isDense(t)) return stepKind_ == StepKind::Decode && !forcedGemvMaxT_ ? kDecodeGemvMaxT : kDenseGemvMaxT;
    // Quantized weights in decode steps: the tensor-core kernel from 3 sequences on (H200, llama8b
    // Q4_K_M aggregate decode: 2 sequences 545 vs 528 tok/s, 4: 808 vs 1,043, 8: 1,032 vs 1,854).
    if (forcedGemvMaxT_) return forcedGemvMaxT_;
    // Verification steps: a draft of up to kVerifyGemvMaxT - 1 tokens scored as plain decoding
    // scores each token (the default maxDraft is 8: 9 tokens, two slices).
    return stepKind_ == StepKind::Decode ? kDecodeGemvMaxT : stepKind_ == StepKind::Verify ? verifyGemvMaxT_ : kGemvMaxT;
}

bool LinearOps::useGemv(int rows, const DevTensor& w) const {
    // Batch-invariant: every row count takes the matrix-vector kernels (in 8-token slices), whose
    // arithmetic for a row does not depend on the other rows.
    if (batchInvariant_) return gemvSupports(w.type);
    if (rows <= gemvLimit(w.type)) return true;
    if (isDense(w.type) || forcedGemvMaxT_) return false;  // (measuring: the limit as set)
    // A lowered limit only where the tensor-core kernel takes the weights instead.
    return rows <= kGemvMaxT && !mmaTakes(rows, w);
}

int LinearOps::gemvFormat(int t) {
    switch (t) {
        case 0: return kActF32;
        case 1: return kActF16;
        case 30: return kActBF16;
        case 3: case 7: return kActQ8_1;
        default: return isKQuant(t) ? kActQ8_K : kActQ8_0;
    }
}

int LinearOps::gemmFormat(int t) {
    switch (t) {
        case 0: return kActF32;
        case 1: return kActF16;
        case 30: return kActBF16;
        case 3: case 7: return kActFQ8_1;
        default: return isKQuant(t) ? kActFQ8_K : kActFQ8_0;
    }
}

const void* LinearOps::denseInput(int fmt) const {
    return fmt == kActF32 ? actF32_.data() : actHalf_.data();
}

Status LinearOps::prepare(const LinearInput& in, int fmt, bool unitOrder) {
    static const bool skip = measureSkips("prep");
    if (skip) return Status::success();
    auto a = prepParams(in, fmt);
    if (!a.ok()) return a.error();
    a->mmaUnitOrder = unitOrder ? 1 : 0;
    return cudaStatus(launchActPrep(*a, stream_), "activation preparation");
}

bool LinearOps::fusesPrep(const LinearInput& in, const DevTensor& w) const {
    return (fusePrep_ == 2 || (fusePrep_ == 1 && !in.normW)) && streamsNext(in, w);
}

bool LinearOps::streamsNext(const LinearInput& in, const DevTensor& w) const {
    return caps_.streamGemv && (w.type == 1 || w.type == 30) && in.rows <= kDecodeGemvMaxT && useGemv(in.rows, w);
}

Result<ActPrepParams> LinearOps::prepParams(const LinearInput& in, int fmt) const {
    if (in.rows > maxRows_ || in.cols > maxCols_)
        return makeError(ErrorCode::Internal, "LinearOps: input larger than its buffers");
    ActPrepParams a;
    a.x = in.x;
    a.ldx = in.ldx;
    a.rowIndex = in.rowIndex;
    a.rows = in.rows;
    a.cols = in.cols;
    a.normW = in.normW;
    a.eps = in.eps;
    a.fmt = fmt;
    a.outF32 = actF32_.as<float>();
    a.outHalf = actHalf_.data();
    a.outQ = actQ_.as<int8_t>();
    a.outScale = actScale_.as<float>();
    a.outSum = fmt == kActQ8_1 || fmt == kActQ8_K ? actSum_.as<float>() : nullptr;
    // The integer form's inputs too (QuantMmaI8.cu), whichever k-quant projection reads this input.
    if (fmt == kActFQ8_K && caps_.i8MmaTypes) a.outUnitSum = actSum_.as<__half>();
    return a;
}

Status LinearOps::gemv(const LinearInput& in, std::span<const Projection> projs, int mode, float* pairOut,
                       const RopeStoreParams* rope, const ActPrepParams* prep) {
    GemvParams g;
    const DevTensor& w0 = *projs[0].w;
    g.type = w0.type;
    g.cols = static_cast<int>(w0.cols);
    g.T = in.rows;
    g.rowBytes = w0.rowBytes;
    g.copyWidth = alignmentOf(w0.rowBytes);
    g.actQ = actQ_.as<int8_t>();
    g.actScale = actScale_.as<float>();
    g.actSum = actSum_.as<float>();
    g.actDense = denseInput(gemvFormat(w0.type));
    g.mode = mode;
    g.nSeg = static_cast<int>(projs.size());
    // Two rows per warp share each activation load; one row per warp (more warps for launches
    // with few rows) measured slower on the H200 for an 8B model. HEARTH_CUDA_GEMV_ROWS=1 (measuring).
    g.rowsPerWarp = gemvRowsPerWarp_;
    g.stageInput = stageInput_ ? 1 : 0;
    g.streamWeights = caps_.streamGemv;
    g.streamStages = streamStages_;
    g.streamMaxCtas = streamMaxCtas_;
    if (prep) {
        g.prep = *prep;
        g.fusedPrep = 1;
    }
    const int rowsPerCta = kGemvWarpsPerCta * g.rowsPerWarp;
    int cta = 0;
    for (size_t i = 0; i < projs.size(); ++i) {
        g.seg[i].w = projs[i].w->data;
        g.seg[i].y = mode == 2 ? pairOut : projs[i].y;
        g.seg[i].rows = static_cast<int>(projs[i].w->rows);
        g.seg[i].ldy = mode == 2 ? static_cast<int>(projs[0].w->rows) : projs[i].ldy;
        g.seg[i].ctaBegin = cta;
        if (mode != 2) cta += (g.seg[i].rows + rowsPerCta - 1) / rowsPerCta;
    }
    if (rope) {
        g.rope = *rope;
        for (size_t i = 0; i < projs.size(); ++i) g.ropeRole[i] = projs[i].ropeRole;
    }
    if (mode == 2) {
        cta = (g.seg[0].rows + kGemvWarpsPerCta - 1) / kGemvWarpsPerCta;
        g.seg[1].ctaBegin = cta;  // never reached: mode 2 keys rows off segment 0
        g.nSeg = 1;
        g.seg[1].w = projs[1].w->data;
    }
    static const bool skip = measureSkips("gemv"), skipMath = measureSkips("kqmath");
    if (skip) return Status::success();
    g.measureSkipMath = skipMath;
    return cudaStatus(launchGemv(g, cta, stream_), "matrix-vector product");
}

Status LinearOps::gemm(const LinearInput& in, const Projection& p) {
    const DevTensor& w = *p.w;
    const int fmt = gemmFormat(w.type);
    const float alpha = 1.0f, beta = p.accumulate ? 1.0f : 0.0f;
    const int n = in.rows, k = static_cast<int>(w.cols);
    if (w.type == 0) {
        HEARTH_CUBLAS_TRY(cublasGemmEx(blas_, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(w.rows), n, k, &alpha, w.data,
                                       CUDA_R_32F, k, actF32_.data(), CUDA_R_32F, k, &beta, p.y, CUDA_R_32F, p.ldy,
                                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        return Status::success();
    }
    if (w.type == 1 || w.type == 30) {
        const cudaDataType t = w.type == 1 ? CUDA_R_16F : CUDA_R_16BF;
        HEARTH_CUBLAS_TRY(cublasGemmEx(blas_, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(w.rows), n, k, &alpha, w.data, t,
                                       k, actHalf_.data(), t, k, &beta, p.y, CUDA_R_32F, p.ldy, CUBLAS_COMPUTE_32F,
                                       CUBLAS_GEMM_DEFAULT));
        return Status::success();
    }
    (void)fmt;
    // Quantized: dequantize a chunk of rows to f16, multiply, next chunk.
    const int64_t chunk = std::max<int64_t>(64, static_cast<int64_t>(dequant_.size() / (static_cast<uint64_t>(k) * 2)) / 64 * 64);
    for (int64_t r0 = 0; r0 < w.rows; r0 += chunk) {
        const int nr = static_cast<int>(std::min<int64_t>(chunk, w.rows - r0));
        if (static_cast<uint64_t>(nr) * k * 2 > dequant_.size())
            return makeError(ErrorCode::Internal, "dequantization scratch too small");
        HEARTH_TRY(cudaStatus(launchDequantRows(w.type, w.data, w.rowBytes, k, nullptr, r0, nr, dequant_.data(), true, stream_),
                              "weight dequantization"));
        HEARTH_CUBLAS_TRY(cublasGemmEx(blas_, CUBLAS_OP_T, CUBLAS_OP_N, nr, n, k, &alpha, dequant_.data(), CUDA_R_16F, k,
                                       actHalf_.data(), CUDA_R_16F, k, &beta, p.y + r0, CUDA_R_32F, p.ldy,
                                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }
    return Status::success();
}

bool LinearOps::mmaTakes(int rows, const DevTensor& w) const {
    if (!caps_.tensorCores || rows > kMmaMaxT || isDense(w.type) || w.cols % 256 != 0)
        return false;
    return quantMmaPlan(w.type, rows, caps_.sharedOptin, caps_.sharedPerSm).maxT > 0;
}

bool LinearOps::mmaEligible(const LinearInput& in, const DevTensor& w) const {
    return !useGemv(in.rows, w) && mmaTakes(in.rows, w);
}

bool LinearOps::wgmmaRuns(int rows, const DevTensor& w) const {
    return caps_.wgmma && (!caps_.i8Mma(w.type) || caps_.i8YieldsToWgmma) && w.cols % 256 == 0 &&
           quantWgmmaPlan(w.type, rows, caps_.sharedOptin, caps_.sharedPerSm).maxT > 0;
}

Status LinearOps::mma(const LinearInput& in, std::span<const Projection> projs, int mode, float* pairOut,
                      bool unitOrder) {
    const DevTensor& w0 = *projs[0].w;
    // The integer form (only types QuantMmaI8.cu supports are ever set), unless the warpgroup form
    // takes this launch (DeviceCaps::i8YieldsToWgmma).
    const bool i8 = caps_.i8Mma(w0.type) && !(unitOrder && wgmmaRuns(in.rows, w0));
    const bool wg = unitOrder && !i8;
    if (wg && !wgmmaRuns(in.rows, w0))
        return makeError(ErrorCode::Internal, "inputs in MMA unit order for a kernel that reads them in order");
    const MmaPlan plan = i8   ? quantMmaI8Plan(w0.type, in.rows, caps_.sharedOptin, caps_.sharedPerSm)
                         : wg ? quantWgmmaPlan(w0.type, in.rows, caps_.sharedOptin, caps_.sharedPerSm)
                              : quantMmaPlan(w0.type, in.rows, caps_.sharedOptin, caps_.sharedPerSm);
    if (plan.maxT <= 0) return makeError(ErrorCode::Internal, "tensor-core path chosen for a shape it cannot run");
    static const bool skip = measureSkips("mma"), skipMath = measureSkips("mmamath"), skipW = measureSkips("mmaw"),
                      skipX = measureSkips("mmax");
    if (skip) return Status::success();
    // Devices with little shared memory take the tokens in several launches.
    for (int t0 = 0; t0 < in.rows; t0 += plan.maxT) {
        MmaParams m;
        m.type = w0.type;
        m.rowBytes = w0.rowBytes;
        m.cols = static_cast<int>(w0.cols);
        m.x = actHalf_.as<__half>() + static_cast<int64_t>(t0) * m.cols;
        m.T = std::min(plan.maxT, in.rows - t0);
        m.mode = mode;
        m.stages = plan.stages;
        m.measureSkipMath = skipMath;
        m.skipWeightCopies = skipW;
        m.skipInputCopies = skipX;
        m.bulkWeights = wg && bulkWeights_;
        m.partial = partial_.as<float>();
        if (i8) {
            m.xq = actQ_.as<int8_t>() + static_cast<int64_t>(t0) * m.cols;
            m.xScale = actScale_.as<float>() + static_cast<int64_t>(t0) * (m.cols / 32);
            m.xUnitSum = actSum_.as<__half>() + static_cast<int64_t>(t0) * (m.cols / 32);
        }
        int ctas = 0;
        if (mode == 2) {
            const int F = static_cast<int>(w0.rows);
            m.seg[0] = {w0.data, pairOut + static_cast<int64_t>(t0) * F, F, F, 0, 0};
            m.seg[1] = {projs[1].w->data, nullptr, F, F, 0, F};
            m.nSeg = 1;
            m.totalRows = 2 * F;
            ctas = quantMmaCtas(F, 2);
        } else {
            for (size_t i = 0; i < projs.size(); ++i) {
                const int rows = static_cast<int>(projs[i].w->rows);
                m.seg[i] = {projs[i].w->data, projs[i].y + static_cast<int64_t>(t0) * projs[i].ldy, rows, projs[i].ldy, ctas,
                            m.totalRows};
                ctas += quantMmaCtas(rows, mode);
                m.totalRows += rows;
            }
            m.nSeg = static_cast<int>(projs.size());
        }
        const uint64_t perSplit = static_cast<uint64_t>(m.T) * m.totalRows * 4;
        const int maxSplits = static_cast<int>(std::min<uint64_t>(16, partial_.size() / perSplit));
        const int splits = quantMmaSplits(ctas, m.cols, caps_.multiProcessors, plan.ctasPerSm, maxSplits);
        const cudaError_t e = i8 ? launchQuantMmaI8(m, splits, stream_)
                              : wg ? launchQuantWgmma(m, splits, stream_)
                                   : launchQuantMma(m, splits, stream_);
        HEARTH_TRY(cudaStatus(e, "tensor-core matrix product"));
    }
    return Status::success();
}

Status LinearOps::project(const LinearInput& in, std::span<const Projection> projs, const RopeStoreParams* rope,
                          bool* fused) {
    if (fused) *fused = false;
    if (projs.empty()) return Status::success();
    // The fused RoPE epilogue needs every projection on the matrix-vector kernels with a warp per
    // row pair (the rotation pair).
    bool fuse = rope && fused && gemvRowsPerWarp_ == 2;
    for (size_t i = 0; fuse && i < projs.size(); ++i)
        fuse = projs[i].ropeRole >= 0 && !projs[i].accumulate && useGemv(in.rows, *projs[i].w);
    if (!fuse) rope = nullptr;
    std::vector<bool> done(projs.size(), false);
    // Matrices of the same type and width with the same epilogue: one launch (up to three).
    struct Group {
        Projection p[3];
        size_t n = 0;
        operator std::span<const Projection>() const { return {p, n}; }
    };
    auto groupOf = [&](size_t i, auto&& eligible) {
        Group group;
        for (size_t j = i; j < projs.size() && group.n < 3; ++j)
            if (!done[j] && projs[j].w->type == projs[i].w->type && projs[j].w->cols == projs[i].w->cols &&
                projs[j].accumulate == projs[i].accumulate && eligible(*projs[j].w)) {
                group.p[group.n++] = projs[j];
                done[j] = true;
            }
        return group;
    };
    for (size_t i = 0; i < projs.size(); ++i) {
        if (done[i]) continue;
        const bool small = useGemv(in.rows, *projs[i].w);
        const int fmt = small ? gemvFormat(projs[i].w->type) : gemmFormat(projs[i].w->type);
        // A streamed dense product prepares its own input (and leaves it for the others below).
        const bool fusePrep = small && fusesPrep(in, *projs[i].w);
        // The inputs in MMA unit order where the warpgroup kernel reads them and every other
        // product of this input reads the int8 form (the integer kernel) instead.
        bool unitOrder = false;
        if (!small) {
            bool any = false, all = true;
            for (size_t j = i; j < projs.size(); ++j) {
                const DevTensor& w = *projs[j].w;
                if (done[j] || useGemv(in.rows, w) || gemmFormat(w.type) != fmt) continue;
                const bool wg = mmaEligible(in, w) && wgmmaRuns(in.rows, w);
                any = any || wg;
                all = all && (wg || (mmaEligible(in, w) && caps_.i8Mma(w.type)));
            }
            unitOrder = any && all;
        }
        ActPrepParams prep;
        if (fusePrep) {
            auto a = prepParams(in, fmt);
            if (!a.ok()) return a.error();
            prep = *a;
        } else {
            HEARTH_TRY(prepare(in, fmt, unitOrder));
        }
        if (!small) {
            // Every projection of this input format, the first one included, on the prepared input.
            for (size_t j = i; j < projs.size(); ++j)
                if (!done[j] && !useGemv(in.rows, *projs[j].w) && gemmFormat(projs[j].w->type) == fmt) {
                    if (mmaEligible(in, *projs[j].w)) {
                        const auto group = groupOf(j, [&](const DevTensor& w) { return mmaEligible(in, w); });
                        HEARTH_TRY(mma(in, group, projs[j].accumulate ? 1 : 0, nullptr, unitOrder));
                    } else {
                        HEARTH_TRY(gemm(in, projs[j]));
                        done[j] = true;
                    }
                }
            continue;
        }
        const auto group = groupOf(i, [](const DevTensor&) { return true; });
        HEARTH_TRY(gemv(in, group, projs[i].accumulate ? 1 : 0, nullptr, rope, fusePrep ? &prep : nullptr));
        // Others of the same input format but another type reuse the prepared input.
        for (size_t j = i + 1; j < projs.size(); ++j)
            if (!done[j] && useGemv(in.rows, *projs[j].w) && gemvFormat(projs[j].w->type) == fmt) {
                const Projection one[1] = {projs[j]};
                HEARTH_TRY(gemv(in, one, projs[j].accumulate ? 1 : 0, nullptr, rope));
                done[j] = true;
            }
    }
    if (fused) *fused = rope != nullptr;
    return Status::success();
}

Status LinearOps::gatedFfn(const LinearInput& in, const DevTensor& gate, const DevTensor& up, float* out, float* upScratch) {
    const int F = static_cast<int>(gate.rows);
    if (useGemv(in.rows, gate) && gate.type == up.type) {
        const Projection pair[2] = {{&gate, out, F, false}, {&up, out, F, false}};
        if (fusesPrep(in, gate)) {
            auto a = prepParams(in, gemvFormat(gate.type));
            if (!a.ok()) return a.error();
            return gemv(in, pair, 2, out, nullptr, &*a);
        }
        HEARTH_TRY(prepare(in, gemvFormat(gate.type)));
        return gemv(in, pair, 2, out);
    }
    if (gate.type == up.type && gate.cols == up.cols && gate.rows == up.rows && mmaEligible(in, gate)) {
        const bool unitOrder = wgmmaRuns(in.rows, gate);
        HEARTH_TRY(prepare(in, gemmFormat(gate.type), unitOrder));
        const Projection pair[2] = {{&gate, out, F, false}, {&up, out, F, false}};
        return mma(in, pair, 2, out, unitOrder);
    }
    const Projection projs[2] = {{&gate, out, F, false}, {&up, upScratch, F, false}};
    HEARTH_TRY(project(in, projs));
    return cudaStatus(launchSiluMul(out, upScratch, static_cast<int64_t>(in.rows) * F, stream_), "SwiGLU");
}

}  // namespace hearth::cuda
