// The tensor-core kernels against the CPU backend, on shapes the small reference models do not
// reach through the default paths:
//  - the fused quantized matrix product (9..64 tokens): the coder model quantized here, whose
//    1536-wide down projection splits its K range over several CTAs and whose Q/K/V matrices of
//    one type share a launch;
//  - flash attention on tensor cores (forced for every step with HEARTH_CUDA_MMA_ATTENTION=1, which
//    otherwise takes only prefill-sized steps): long prompts, a continuation next to a new prompt,
//    head sizes 64 and 128 (a twin of tiny-llama-f16 with two 128-wide heads);
//  - RoPE and the KV store fused into the Q/K/V matrix-vector launches against the separate kernel
//    they replace: bit-identical logits.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "CudaTestSupport.h"
#include "core/Half.h"
#include "gguf/GgufWriter.h"
#include "hearth/quantize.h"

using namespace hearth;
using namespace hearth::test;

namespace {

std::vector<int32_t> randomTokens(int n, int vocab, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<int32_t> t(static_cast<size_t>(n));
    for (auto& x : t) x = 1 + static_cast<int32_t>(rng() % static_cast<uint32_t>(vocab - 1));
    return t;
}

struct Agreement {
    double worst = 0, sum = 0;
    int rows = 0, same = 0;
    void add(const std::vector<float>& a, const std::vector<float>& b, size_t V) {
        ASSERT_EQ(a.size(), b.size());
        for (size_t r = 0; r * V < a.size(); ++r, ++rows) {
            const double e = relErr(a.data() + r * V, b.data() + r * V, V);
            worst = std::max(worst, e);
            sum += e;
            same += argmax(a.data() + r * V, V) == argmax(b.data() + r * V, V);
        }
    }
    double mean() const { return rows ? sum / rows : 0; }
};

// A tiny-llama file (tiny-llama-f16 unless named) with its 4 × 64 query heads read as 2 × 128
// (and 2 × 64 KV heads as 1 × 128).
std::string writeWideHeadTwin(const std::string& name = "tiny-llama-f16.gguf") {
    auto src = GgufFile::open(modelPath(name));
    EXPECT_TRUE(src.ok()) << src.error().toString();
    if (!src.ok()) return {};  // (the callers check for an empty path)
    GgufWriter w;
    for (const auto& [k, v] : (*src)->metadata()) EXPECT_TRUE(w.setMetadata(k, v).ok());
    EXPECT_TRUE(w.setMetadata("llama.attention.head_count", GgufValue::u32(2)).ok());
    EXPECT_TRUE(w.setMetadata("llama.attention.head_count_kv", GgufValue::u32(1)).ok());
    EXPECT_TRUE(w.setMetadata("llama.rope.dimension_count", GgufValue::u32(128)).ok());
    for (const GgufTensorInfo& t : (*src)->tensors()) {
        const uint8_t* data = (*src)->tensorData(t);
        EXPECT_TRUE(w.addTensor(t.name, t.type, t.dims, std::vector<uint8_t>(data, data + t.byteSize)).ok());
    }
    const std::string path = ::testing::TempDir() + "/hearth-d128-" + name;
    EXPECT_TRUE(w.write(path).ok());
    return path;
}

// tiny-llama-f16 with a kFfn-wide FFN (random f16 weights in place of its gate, up and down
// matrices; by default 1408: down projection rows of 2816 bytes).
std::string writeWideFfnTwin(uint64_t kFfn = 1408) {
    auto src = GgufFile::open(modelPath("tiny-llama-f16.gguf"));
    EXPECT_TRUE(src.ok()) << src.error().toString();
    if (!src.ok()) return {};
    GgufWriter w;
    for (const auto& [k, v] : (*src)->metadata()) EXPECT_TRUE(w.setMetadata(k, v).ok());
    EXPECT_TRUE(w.setMetadata("llama.feed_forward_length", GgufValue::u32(static_cast<uint32_t>(kFfn))).ok());
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-0.08f, 0.08f);
    for (const GgufTensorInfo& t : (*src)->tensors()) {
        const bool in = t.name.find("ffn_gate") != std::string::npos || t.name.find("ffn_up") != std::string::npos;
        const bool out = t.name.find("ffn_down") != std::string::npos;
        if (!in && !out) {
            const uint8_t* data = (*src)->tensorData(t);
            EXPECT_TRUE(w.addTensor(t.name, t.type, t.dims, std::vector<uint8_t>(data, data + t.byteSize)).ok());
            continue;
        }
        EXPECT_EQ(t.type, TensorType::F16);
        std::vector<uint64_t> dims = t.dims;  // [cols, rows]
        dims[in ? 1 : 0] = kFfn;
        std::vector<uint8_t> bytes(dims[0] * dims[1] * 2);
        for (size_t i = 0; i < bytes.size(); i += 2) {
            const f16_t h = f32ToF16(u(rng));
            std::memcpy(&bytes[i], &h, 2);
        }
        EXPECT_TRUE(w.addTensor(t.name, t.type, dims, std::move(bytes)).ok());
    }
    const std::string path = ::testing::TempDir() + "/hearth-ffn" + std::to_string(kFfn) + "-tiny-llama-f16.gguf";
    EXPECT_TRUE(w.write(path).ok());
    return path;
}

// The 4096-wide-FFN twin quantized here to Q4_K_M (its down projections: Q4_K in layer 0, Q6_K in
// layer 1), written as `name` in the test folder; empty (and the test failed) if quantizing fails.
std::string writeWideFfnQ4KmTwin(const std::string& name) {
    QuantizeParams qp;
    qp.inputPath = writeWideFfnTwin(4096);
    qp.outputPath = ::testing::TempDir() + "/" + name;
    qp.mix = "Q4_K_M";
    auto q = quantizeModel(qp);
    if (!q.ok()) {
        ADD_FAILURE() << q.error().toString();
        return {};
    }
    return qp.outputPath;
}

// Environment settings read when a backend is made (an empty value unsets).
using EnvSettings = std::vector<std::pair<const char*, const char*>>;

// The GPU backend of `path` made with `env` set (unset again afterwards), with a `kv` cache.
Result<std::unique_ptr<Backend>> gpuBackendWith(const std::string& path, const EnvSettings& env,
                                                KvDType kv = KvDType::F16) {
    for (const auto& [k, v] : env) {
        if (*v) setenv(k, v, 1);
        else unsetenv(k);
    }
    auto b = gpuBackend(path, oneGpu(), 96, kv);
    for (const auto& e : env) unsetenv(e.first);
    return b;
}

// The flash-attention tests' steps, every logit row: a 200-token prompt alone, then its 57-token
// continuation in one step with a new 90-token prompt, then `decodes` one-token steps continuing
// the first (graphs); the tokens drawn from seeds seed .. seed + 3.
std::vector<float> longPromptLogits(Backend& be, uint32_t seed, int decodes) {
    const int V = static_cast<int>(be.vocabSize());
    const auto a = randomTokens(200, V, seed), a2 = randomTokens(57, V, seed + 1), b = randomTokens(90, V, seed + 2);
    const auto more = randomTokens(decodes, V, seed + 3);
    const auto tableA = blockRun(0, 257 + decodes), tableB = blockRun(40, 90);
    std::vector<float> all = runSlice(be, a, 0, tableA, true), l;
    ForwardBatch fb;
    fb.addSequence(a2, 200, tableA, true, false);
    fb.addSequence(b, 0, tableB, true, false);
    EXPECT_TRUE(be.forward(fb, l).ok());
    all.insert(all.end(), l.begin(), l.end());
    for (int i = 0; i < decodes; ++i) {
        l = runSlice(be, {more[static_cast<size_t>(i)]}, 257 + i, tableA);
        all.insert(all.end(), l.begin(), l.end());
    }
    return all;
}

// The coder model to quantize from: the F16 file, or the Q8_0 one the GPU pack carries instead.
std::string coderSource() {
    const std::string f16 = modelPath("coder-f16.gguf");
    return std::filesystem::exists(f16) ? f16 : modelPath("coder-q8_0.gguf");
}

}  // namespace

TEST(CudaTensorCores, QuantizedMatrixProductMatchesCpuAndCublas) {
    SKIP_WITHOUT_GPU();
    for (const char* mix : {"Q4_K_M", "Q8_0", "Q5_K_M"}) {
        const std::string path = ::testing::TempDir() + "/hearth-coder-" + mix + ".gguf";
        QuantizeParams qp;
        qp.inputPath = coderSource();
        qp.outputPath = path;
        qp.mix = mix;
        auto q = quantizeModel(qp);
        ASSERT_TRUE(q.ok()) << q.error().toString();
        // The f16 form of every type (HEARTH_CUDA_MMA_I8=0; Q5_K takes the integer form by default).
        auto fused = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_I8", "0"}});
        // From 2 tokens on (instead of from 9) the tensor-core kernel (its one-tile form) in one
        // backend and dequantization + cuBLAS, the path it is compared with, in the other.
        auto fusedSmall = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_I8", "0"}, {"HEARTH_CUDA_GEMV_MAX_T", "1"}});
        auto cublas = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_I8", "0"}, {"HEARTH_CUDA_GEMV_MAX_T", "1"}, {"HEARTH_CUDA_NO_MMA", "1"}});
        // The integer form of Q4_K and Q5_K (HEARTH_CUDA_MMA_I8=1), held to the same bounds.
        auto i8 = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_I8", "1"}});
        auto i8Small = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_I8", "1"}, {"HEARTH_CUDA_GEMV_MAX_T", "1"}});
        auto cpu = cpuBackend(path);
        ASSERT_TRUE(fused.ok() && cublas.ok() && fusedSmall.ok() && cpu.ok() && i8.ok() && i8Small.ok());
        const size_t V = (*fused)->vocabSize();
        // Every tile count the kernel is built for (1, 2, 4, 8 tiles of 8 tokens), full and partial.
        for (int T : {6, 9, 24, 40, 64}) {
            const auto toks = randomTokens(T, static_cast<int>(V), 7u + static_cast<uint32_t>(T));
            const auto table = blockRun(0, T);
            const auto a = runSlice(T <= 8 ? **fusedSmall : **fused, toks, 0, table, true);
            const auto b = runSlice(**cublas, toks, 0, table, true);
            const auto c = runSlice(**cpu, toks, 0, table, true);
            Agreement fusedVsCpu, cublasVsCpu;
            fusedVsCpu.add(a, c, V);
            cublasVsCpu.add(b, c, V);
            std::printf("  coder %-6s %2d tokens: vs CPU rel err mean %.2e max %.2e (top-1 %d/%d); the cuBLAS path's %.2e / %.2e "
                        "(top-1 %d/%d)\n",
                        mix, T, fusedVsCpu.mean(), fusedVsCpu.worst, fusedVsCpu.same, fusedVsCpu.rows, cublasVsCpu.mean(),
                        cublasVsCpu.worst, cublasVsCpu.same, cublasVsCpu.rows);
            // About as close to the CPU as the path it replaces. On this trained model both drift
            // from the CPU by a few percent over longer prompts, near-ties flipping (measured on the
            // H200: worst rows 2-9e-2 for either path, top-1 21-24 of 24), so the bounds are on the
            // mean and loose on the worst row; a misread block, row or token gives errors of order 1.
            EXPECT_LE(fusedVsCpu.mean(), 2.0 * cublasVsCpu.mean() + 5e-3) << mix << " T=" << T;
            EXPECT_LE(fusedVsCpu.worst, 0.15) << mix << " T=" << T;
            // 85% of the rows' top-1, or all but one (few rows).
            EXPECT_TRUE(fusedVsCpu.same * 100 >= fusedVsCpu.rows * 85 || fusedVsCpu.same + 1 >= fusedVsCpu.rows)
                << mix << " T=" << T << ": top-1 " << fusedVsCpu.same << "/" << fusedVsCpu.rows;
            if (std::string(mix) != "Q8_0") {
                Agreement i8VsCpu;
                i8VsCpu.add(runSlice(T <= 8 ? **i8Small : **i8, toks, 0, table, true), c, V);
                std::printf("  coder %-6s %2d tokens, integer form: vs CPU rel err mean %.2e max %.2e (top-1 %d/%d)\n", mix,
                            T, i8VsCpu.mean(), i8VsCpu.worst, i8VsCpu.same, i8VsCpu.rows);
                EXPECT_LE(i8VsCpu.mean(), 2.0 * cublasVsCpu.mean() + 5e-3) << mix << " T=" << T;
                EXPECT_LE(i8VsCpu.worst, 0.15) << mix << " T=" << T;
                EXPECT_TRUE(i8VsCpu.same * 100 >= i8VsCpu.rows * 85 || i8VsCpu.same + 1 >= i8VsCpu.rows) << mix << " T=" << T;
            }
        }
        // Decode steps of 16 sequences (one token each) after their prompts: the batched-decode shape.
        const int n = 16;
        for (Backend* b : {fused->get(), cpu->get()})
            for (int s = 0; s < n; ++s) runSlice(*b, randomTokens(5 + s, static_cast<int>(V), 100u + s), 0, blockRun(4 * s, 64));
        ForwardBatch fb;
        for (int s = 0; s < n; ++s) fb.addSequence({static_cast<int32_t>(10 + s)}, 5 + s, blockRun(4 * s, 64), false, true);
        std::vector<float> lg, lc;
        ASSERT_TRUE((*fused)->forward(fb, lg).ok());
        ASSERT_TRUE((*cpu)->forward(fb, lc).ok());
        Agreement dec;
        dec.add(lg, lc, V);
        std::printf("  coder %-6s 16 decodes: vs CPU max rel err %.2e (top-1 %d/%d)\n", mix, dec.worst, dec.same, dec.rows);
        EXPECT_LE(dec.worst, 5e-2) << mix;
        EXPECT_GE(dec.same * 100, dec.rows * 90) << mix;
    }
}

TEST(CudaTensorCores, FlashAttentionMatchesCpuOnLongPrompts) {
    SKIP_WITHOUT_GPU();
    const std::string wide = writeWideHeadTwin();
    std::vector<std::string> models = {modelPath("tiny-llama-f16.gguf"), wide};
    if (std::filesystem::exists(modelPath("coder-f16.gguf"))) models.push_back(modelPath("coder-f16.gguf"));
    for (const std::string& path : models) {
        auto gpu = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_ATTENTION", "1"}});
        auto general = gpuBackendWith(path, {{"HEARTH_CUDA_NO_MMA_ATTENTION", "1"}});  // the kernels the tensor-core one replaces
        auto cpu = cpuBackend(path);
        ASSERT_TRUE(gpu.ok() && general.ok() && cpu.ok()) << path;
        const size_t V = (*gpu)->vocabSize();
        // A long prompt alone, then its continuation in one step with a new prompt.
        const auto ref = longPromptLogits(**cpu, 1, 0);
        Agreement mma, gen;
        mma.add(longPromptLogits(**gpu, 1, 0), ref, V);
        gen.add(longPromptLogits(**general, 1, 0), ref, V);
        std::printf("  %-30s max rel err %.2e, top-1 equal %d/%d (the general kernels: %.2e, %d/%d)\n",
                    path.substr(path.rfind('/') + 1).c_str(), mma.worst, mma.same, mma.rows, gen.worst, gen.same, gen.rows);
        EXPECT_EQ(mma.rows, 200 + 57 + 90);
        // f16 weights' tolerance (CudaReferenceTest), or the general kernels' own drift on the
        // trained coder over 250 positions, whichever is larger.
        EXPECT_LE(mma.worst, std::max(2e-3, 1.5 * gen.worst)) << path;
        EXPECT_GE(mma.same * 100, mma.rows * 99) << path;
    }
}

// FP8 KV (E4M3, a scale per row) in the tensor-core attention: the raw rows become f16 tiles in
// shared memory; a key's scale multiplies its scores and its probabilities. Against the general
// kernels on the same FP8 cache (HEARTH_CUDA_NO_MMA_ATTENTION=1), which dequantize every value in
// f32: a long prompt, its continuation beside a new prompt, then decode steps (graphs, keys split
// into partitions); head sizes 64 and 128. The two differ in rounding (Q in f16, the scales applied
// to sums rather than to values), and each backend stores its own K and V: where those differ in
// the last bits, E4M3's 3-bit mantissa can round a value to the next step (1/16 apart) in one
// cache and not in the other, so later layers drift further apart than with F16 KV (on the H100:
// 6.1e-3 and 3.6e-3, top-1 354/355 each). The bound is half of what FP8 itself costs against F16
// (CudaVsCpu.KvCacheDtypes: 2.8e-2); a misread scale or value would be off by order 1.
TEST(CudaTensorCores, FlashAttentionReadsFp8KvAsTheGeneralKernelsDo) {
    SKIP_WITHOUT_GPU();
    for (const std::string& path : {modelPath("tiny-llama-f16.gguf"), writeWideHeadTwin()}) {
        auto gpu = gpuBackendWith(path, {{"HEARTH_CUDA_MMA_ATTENTION", "1"}}, KvDType::FP8_E4M3);
        auto general = gpuBackendWith(path, {{"HEARTH_CUDA_NO_MMA_ATTENTION", "1"}}, KvDType::FP8_E4M3);
        ASSERT_TRUE(gpu.ok() && general.ok()) << path;
        const size_t V = (*gpu)->vocabSize();
        Agreement cmp;
        cmp.add(longPromptLogits(**gpu, 4, 8), longPromptLogits(**general, 4, 8), V);
        std::printf("  %-30s FP8 KV, tensor cores vs general kernels: max rel err %.2e, top-1 equal %d/%d\n",
                    path.substr(path.rfind('/') + 1).c_str(), cmp.worst, cmp.same, cmp.rows);
        EXPECT_EQ(cmp.rows, 200 + 57 + 90 + 8);
        EXPECT_LE(cmp.worst, 1.4e-2) << path;
        EXPECT_GE(cmp.same * 100, cmp.rows * 99) << path;
    }
}

// Logits of `path` with a switch on and off (environment settings, read when a backend is made;
// an empty value unsets) are the same bit for bit and agree with the CPU: prefill steps of two
// sequences, then decode steps of one (graphs) and of two. With a ratio instead (a switch that
// changes the order of sums): the switch's logits are as close to the CPU's as the others are, their
// worst row's relative error at most `ratio` times the others' (or 2e-3), and top-1 within 4 rows (of 75:
// tiny models have near ties).
namespace {
void expectSwitchChangesNoLogit(const std::string& path, const EnvSettings& onEnv, const EnvSettings& offEnv,
                                const char* what, double ratio = 0) {
    auto on = gpuBackendWith(path, onEnv);
    auto off = gpuBackendWith(path, offEnv);
    auto cpu = cpuBackend(path);
    ASSERT_TRUE(on.ok() && off.ok() && cpu.ok()) << path;
    const size_t V = (*on)->vocabSize();
    const auto a = randomTokens(40, static_cast<int>(V), 11), b = randomTokens(23, static_cast<int>(V), 12);
    const auto tableA = blockRun(0, 64), tableB = blockRun(8, 64);
    auto run = [&](Backend& be) {
        std::vector<float> all = runSlice(be, a, 0, tableA, true);
        auto add = [&](const std::vector<float>& l) { all.insert(all.end(), l.begin(), l.end()); };
        add(runSlice(be, b, 0, tableB, true));
        for (int i = 0; i < 6; ++i) add(runSlice(be, {a[static_cast<size_t>(i)]}, 40 + i, tableA));
        for (int i = 0; i < 3; ++i) {
            ForwardBatch fb;
            fb.addSequence({b[static_cast<size_t>(i)]}, 23 + i, tableB, false, true);
            fb.addSequence({a[static_cast<size_t>(10 + i)]}, 46 + i, tableA, false, true);
            std::vector<float> l;
            EXPECT_TRUE(be.forward(fb, l).ok());
            add(l);
        }
        return all;
    };
    const auto x = run(**on), y = run(**off), ref = run(**cpu);
    ASSERT_EQ(x.size(), y.size());
    ASSERT_EQ(x.size(), (40 + 23 + 6 + 6) * V);
    size_t differ = 0;
    double maxDiff = 0, maxAbs = 0;
    std::string rows;  // the rows with differences (at most 12): row:count
    for (size_t r = 0, listed = 0; r * V < x.size(); ++r) {
        size_t n = 0;
        for (size_t i = r * V; i < (r + 1) * V; ++i) {
            n += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
            maxDiff = std::max(maxDiff, std::fabs(static_cast<double>(x[i]) - y[i]));
            maxAbs = std::max(maxAbs, std::fabs(static_cast<double>(y[i])));
        }
        differ += n;
        if (n && listed++ < 12) rows += " " + std::to_string(r) + ":" + std::to_string(n);
    }
    Agreement vsCpu, offVsCpu;
    vsCpu.add(x, ref, V);
    offVsCpu.add(y, ref, V);
    std::printf("  %-34s %s: %zu of %zu logits differ (largest by %.2e of %.2e); vs CPU max rel err %.2e, top-1 %d/%d"
                " (without: %.2e, %d/%d)\n",
                path.substr(path.rfind('/') + 1).c_str(), what, differ, x.size(), maxDiff, maxAbs, vsCpu.worst, vsCpu.same,
                vsCpu.rows, offVsCpu.worst, offVsCpu.same, offVsCpu.rows);
    if (ratio > 0) {
        EXPECT_LE(vsCpu.worst, std::max(2e-3, ratio * offVsCpu.worst)) << path;
        EXPECT_GE(vsCpu.same + 4, offVsCpu.same) << path;
    } else
        EXPECT_EQ(differ, 0u) << path << ": rows (0-39 and 40-62 prompts, 63-68 one-sequence decodes, 69-74 two-sequence"
                                 " decodes) with differences, row:count:" << rows;
    EXPECT_GE(vsCpu.same * 100, vsCpu.rows * 90) << path;
}
}  // namespace

// The fused RoPE / KV store epilogue computes what ropeStoreKernel computes, bit for bit: decode
// steps of one sequence (graphs) and of two, after prefill steps (which keep the separate kernel),
// on head sizes 64 (tiny-llama-f16) and 128 (the wide-head twins of tiny-llama Q4_K_M and Q8_0, so
// the k-quant and the general matrix-vector kernels both carry it).
TEST(CudaTensorCores, FusedRopeEqualsTheSeparateKernel) {
    SKIP_WITHOUT_GPU();
    for (const std::string& path : {writeWideHeadTwin("tiny-llama-q4_k_m.gguf"), writeWideHeadTwin("tiny-llama-q8_0.gguf"),
                                    modelPath("tiny-llama-f16.gguf")})
        expectSwitchChangesNoLogit(path, {}, {{"HEARTH_CUDA_NO_ROPE_FUSION", "1"}}, "fused vs separate");
}

// One-token launches of the dense matrix-vector kernel (its register-loading form) read their
// input row from shared memory, copied there once per CTA (GemvParams::stageInput): the same
// logits bit for bit as when they read it through L1 (HEARTH_CUDA_NO_STAGED_INPUT=1), on decode
// steps of one sequence (graphs), with prefill and two-sequence steps around them; head sizes 64
// and 128.
TEST(CudaTensorCores, StagedInputEqualsTheL1Input) {
    SKIP_WITHOUT_GPU();
    for (const std::string& path : {modelPath("tiny-llama-f16.gguf"), writeWideHeadTwin()})
        expectSwitchChangesNoLogit(path, {{"HEARTH_CUDA_STREAM_GEMV", "0"}},
                                   {{"HEARTH_CUDA_STREAM_GEMV", "0"}, {"HEARTH_CUDA_NO_STAGED_INPUT", "1"}},
                                   "staged vs L1 input");
}

// One- and two-token launches of the dense kernel stream their weights through shared memory
// (GemvParams::streamWeights) and prepare their own inputs (GemvParams::fusedPrep): the same logits
// bit for bit as the form loading them into registers after a separate preparation
// (HEARTH_CUDA_STREAM_GEMV=0), with bulk copies (the default on sm_90) and with cp.async, with and
// without the fused preparation, rings of 2-4 slots, and launches capped to a few CTAs so that each
// warp walks many row pairs. The wide-FFN twin's 1408-wide down projection takes two pieces a row,
// the second partial.
TEST(CudaTensorCores, StreamedWeightsEqualTheLoadedWeights) {
    SKIP_WITHOUT_GPU();
    const EnvSettings loaded = {{"HEARTH_CUDA_STREAM_GEMV", "0"}};
    for (const std::string& path : {modelPath("tiny-llama-f16.gguf"), writeWideHeadTwin(), writeWideFfnTwin()}) {
        expectSwitchChangesNoLogit(path, {}, loaded, "streamed (default) vs loaded");
        expectSwitchChangesNoLogit(path, {{"HEARTH_CUDA_FUSED_PREP", "0"}}, loaded, "streamed, separate preparation");
        expectSwitchChangesNoLogit(path,
                                   {{"HEARTH_CUDA_FUSED_PREP", "2"}, {"HEARTH_CUDA_STREAM_STAGES", "2"},
                                    {"HEARTH_CUDA_STREAM_MAX_CTAS", "3"}},
                                   loaded, "fused preparation, 2 slots, 3 CTAs");
        expectSwitchChangesNoLogit(path,
                                   {{"HEARTH_CUDA_FUSED_PREP", "1"}, {"HEARTH_CUDA_STREAM_GEMV", "1"},
                                    {"HEARTH_CUDA_STREAM_MAX_CTAS", "2"}},
                                   loaded, "cp.async, unnormalized inputs fused, 2 CTAs");
    }
}

// One- and two-token launches of the Q4_K / Q5_K / Q6_K kernel on sm_90 copy each piece of weights
// as one bulk copy per row (lane 0) instead of 16-byte cp.async copies by every lane: the same
// logits bit for bit (HEARTH_CUDA_STREAM_GEMV=0 keeps cp.async). The tiny models' rows are one or
// two blocks (a partial piece); a 4096-wide-FFN twin quantized here to Q4_K_M has down projections
// of two whole pieces a row (Q6_K in one layer, Q4_K in the other); tiny-qwen3 and the
// 128-wide-head twin (RoPE in the epilogue) around them.
TEST(CudaTensorCores, BulkCopiedKQuantPiecesChangeNoLogit) {
    SKIP_WITHOUT_GPU();
    const std::string wide = writeWideFfnQ4KmTwin("hearth-ffn4096-tiny-llama-q4_k_m.gguf");
    ASSERT_FALSE(wide.empty());
    auto file = GgufFile::open(wide);
    ASSERT_TRUE(file.ok());
    for (const GgufTensorInfo& t : (*file)->tensors()) {
        if (t.name == "blk.0.ffn_down.weight") EXPECT_EQ(t.type, TensorType::Q4_K);
        if (t.name == "blk.1.ffn_down.weight") EXPECT_EQ(t.type, TensorType::Q6_K);
    }
    for (const std::string& path : {modelPath("tiny-llama-q4_k_m.gguf"), modelPath("tiny-llama-q5_k_m.gguf"),
                                    modelPath("tiny-qwen3-q4_k_m.gguf"), writeWideHeadTwin("tiny-llama-q4_k_m.gguf"), wide})
        expectSwitchChangesNoLogit(path, {}, {{"HEARTH_CUDA_STREAM_GEMV", "0"}}, "bulk vs cp.async pieces");
}

// With HEARTH_CUDA_MMA_I8=1, Q4_K and Q5_K matrices in launches of 9..64 tokens take the integer
// tensor-core form (QuantMmaI8.cu; Q5_K does by default): the inputs' Q8_K int8 values against the
// weights' 4- or 5-bit values, exact integer sums per 256-element block, the min term in f16. It
// computes what the CPU's dot products compute, in another order, so its logits are as close to the
// CPU's as the f16 form's (HEARTH_CUDA_MMA_I8=0; a misread nibble, scale or token would be off by
// order 1). tiny-llama Q4_K_M and Q5_K_M (256-wide rows: one K step), tiny-qwen3 and the
// 4096-wide-FFN twin (16 K steps in its Q4_K down projection, the K range split over CTAs); the 40-
// and 23-token prompts take 8 and 4 tiles.
TEST(CudaTensorCores, IntegerKQuantFormAgreesWithTheCpu) {
    SKIP_WITHOUT_GPU();
    const std::string wide = writeWideFfnQ4KmTwin("hearth-ffn4096-i8-tiny-llama-q4_k_m.gguf");
    ASSERT_FALSE(wide.empty());
    for (const std::string& path : {modelPath("tiny-llama-q4_k_m.gguf"), modelPath("tiny-llama-q5_k_m.gguf"),
                                    modelPath("tiny-qwen3-q4_k_m.gguf"), wide})
        expectSwitchChangesNoLogit(path, {{"HEARTH_CUDA_MMA_I8", "1"}}, {{"HEARTH_CUDA_MMA_I8", "0"}}, "integer vs f16 form", 1.25);
}

// On a compute capability 9.0 device, products of 17-64 tokens with Q8_0, Q4_K, Q5_K or Q6_K
// weights run on the warpgroup form (QuantWgmma.cu: wgmma with the weights' fragments from
// registers and the inputs, prepared in MMA unit order, from swizzled shared memory). Its sums
// round inside the tensor cores as mma.sync's need not, so it is held to the CPU as the mma.sync
// form is (HEARTH_CUDA_WGMMA=0). HEARTH_CUDA_WGMMA=2 makes a library without sm_90a code fail here
// instead of quietly comparing the mma.sync form with itself. tiny-llama Q4_K_M / Q8_0 and
// tiny-qwen3 (one K step), Q5_K_M with the integer form off, and the 4096-wide-FFN twin (16 K
// steps, the K range split over CTAs, Q6_K down rows in one layer); the 40- and 23-token prompts
// take the 8- and 4-tile kernels.
namespace {
// Empty where the warpgroup form runs on this device and library, else why it does not (a device
// other than 9.0, or a library without sm_90a code: a plain 90 or an older build whose PTX the
// driver compiled; HEARTH_CUDA_WGMMA=2 fails with those messages; any other failure is the test's).
std::string warpgroupFormMissing() {
    auto probe = gpuBackendWith(modelPath("tiny-llama-q4_k_m.gguf"), {{"HEARTH_CUDA_WGMMA", "2"}});
    if (!probe.ok() && (probe.error().message.find("compute capability 9.0") != std::string::npos ||
                        probe.error().message.find("no sm_90a code") != std::string::npos))
        return probe.error().message;
    EXPECT_TRUE(probe.ok()) << probe.error().toString();
    return {};
}
}  // namespace

TEST(CudaTensorCores, WarpgroupFormAgreesWithTheMmaSyncForm) {
    SKIP_WITHOUT_GPU();
    if (const std::string why = warpgroupFormMissing(); !why.empty()) GTEST_SKIP() << why;
    const std::string wide = writeWideFfnQ4KmTwin("hearth-ffn4096-wg-tiny-llama-q4_k_m.gguf");
    ASSERT_FALSE(wide.empty());
    const EnvSettings on = {{"HEARTH_CUDA_WGMMA", "2"}}, off = {{"HEARTH_CUDA_WGMMA", "0"}};
    for (const std::string& path : {modelPath("tiny-llama-q4_k_m.gguf"), modelPath("tiny-llama-q8_0.gguf"),
                                    modelPath("tiny-qwen3-q4_k_m.gguf"), wide})
        expectSwitchChangesNoLogit(path, on, off, "warpgroup vs mma.sync form", 1.25);
    expectSwitchChangesNoLogit(modelPath("tiny-llama-q5_k_m.gguf"), {{"HEARTH_CUDA_WGMMA", "2"}, {"HEARTH_CUDA_MMA_I8", "0"}},
                               {{"HEARTH_CUDA_WGMMA", "0"}, {"HEARTH_CUDA_MMA_I8", "0"}}, "warpgroup vs mma.sync form", 1.25);
}

// By default (HEARTH_CUDA_MMA_BULK=0 turns it off) the warpgroup form's stages come by tensor maps
// (Q4_K, Q5_K, Q6_K with 16-byte row pitches: QuantWgmma.cu's kTmaForm) or by one bulk copy per row
// and K step (Q8_0, other Q6_K), completing on per-stage mbarriers, instead of 16-byte cp.async
// copies by every thread: the same bytes, so the same logits bit for bit.
// Row spans of every alignment: Q4_K (144-byte blocks, aligned), Q8_0 (34-byte blocks: a 16-byte
// aligned cover around each span) and Q6_K (210 bytes: the twin's layer-1 down projection, split
// over CTAs); Q5_K with the integer form off.
TEST(CudaTensorCores, BulkCopiedTensorCoreWeightsChangeNoLogit) {
    SKIP_WITHOUT_GPU();
    if (const std::string why = warpgroupFormMissing(); !why.empty()) GTEST_SKIP() << why;
    const std::string wide = writeWideFfnQ4KmTwin("hearth-ffn4096-bulk-tiny-llama-q4_k_m.gguf");
    ASSERT_FALSE(wide.empty());
    const EnvSettings on = {{"HEARTH_CUDA_MMA_BULK", "1"}, {"HEARTH_CUDA_WGMMA", "2"}},
                      off = {{"HEARTH_CUDA_MMA_BULK", "0"}, {"HEARTH_CUDA_WGMMA", "2"}};
    for (const std::string& path : {modelPath("tiny-llama-q4_k_m.gguf"), modelPath("tiny-llama-q8_0.gguf"),
                                    modelPath("tiny-qwen3-q4_k_m.gguf"), wide})
        expectSwitchChangesNoLogit(path, on, off, "bulk vs cp.async weight copies");
    expectSwitchChangesNoLogit(modelPath("tiny-llama-q5_k_m.gguf"),
                               {{"HEARTH_CUDA_MMA_BULK", "1"}, {"HEARTH_CUDA_WGMMA", "2"}, {"HEARTH_CUDA_MMA_I8", "0"}},
                               {{"HEARTH_CUDA_MMA_BULK", "0"}, {"HEARTH_CUDA_WGMMA", "2"}, {"HEARTH_CUDA_MMA_I8", "0"}},
                               "bulk vs cp.async weight copies");
}

// By default Q5_K's integer form yields to the warpgroup form where that runs the launch (17-64
// tokens on Hopper): the 40- and 23-token prefill slices then take the same kernel as with the
// integer form off (HEARTH_CUDA_MMA_I8=0), so the logits are the same bit for bit; the integer form
// would sum in another order. (Launches of up to 16 tokens keep the integer form: the decode steps
// here are one and two tokens, on the matrix-vector kernels either way.)
TEST(CudaTensorCores, Q5KTakesTheWarpgroupFormByDefault) {
    SKIP_WITHOUT_GPU();
    if (const std::string why = warpgroupFormMissing(); !why.empty()) GTEST_SKIP() << why;
    expectSwitchChangesNoLogit(modelPath("tiny-llama-q5_k_m.gguf"), {{"HEARTH_CUDA_WGMMA", "2"}, {"HEARTH_CUDA_MMA_I8", ""}},
                               {{"HEARTH_CUDA_WGMMA", "2"}, {"HEARTH_CUDA_MMA_I8", "0"}}, "default vs f16 forms");
}

// The split-keys tensor-core attention held to 128 registers (AttentionMma.cu's kCapped: four CTAs a
// multiprocessor, taken by launches of more than one wave) computes what the uncapped kernel
// computes, bit for bit: the 128-wide-head twin of tiny-llama Q4_K_M with the capped kernel for every
// launch (HEARTH_CUDA_ATTN_CAPPED=1) against none (=0).
TEST(CudaTensorCores, RegisterCappedAttentionChangesNoLogit) {
    SKIP_WITHOUT_GPU();
    const std::string wide = writeWideHeadTwin("tiny-llama-q4_k_m.gguf");
    expectSwitchChangesNoLogit(wide, {{"HEARTH_CUDA_ATTN_CAPPED", "1"}}, {{"HEARTH_CUDA_ATTN_CAPPED", "0"}}, "capped vs uncapped attention");
}
