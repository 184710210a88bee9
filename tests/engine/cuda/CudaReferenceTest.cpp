// The CUDA forward pass against the CPU backend (logits, per weight type and KV dtype) and against
// llama.cpp's greedy continuations (../shared/testdata/reference).
//
// Tolerances (relative L2 error of a logits row against the CPU's), measured on the H200 with a
// margin: 1e-3 for F32 weights, 2e-3 for F16 (the CPU's own AVX2 and scalar kernels differ by
// 5e-4 there), 5e-2 for quantized weights, 2e-3 for a Q8_0 KV cache (its rows are byte-identical),
// and 0.15 for FP8 KV against the CPU's F16 KV (E4M3 keeps 3 mantissa bits).
//
// Why quantized weights are looser: both backends quantize every matmul input to int8 blocks
// exactly as ggml does, so the integer dot products are the same, but the rounding of that
// quantization is discontinuous: a float difference of 1e-7 upstream (another summation order)
// moves a value across a rounding boundary now and then, each such flip changes the input by a
// whole quantization step, and over the layers the logits drift by ~1-2% (the CPU's own AVX2 and
// scalar kernels show the same effect on Q8_0). Top-1 still agrees except at near-ties.
#include <cstdio>
#include <map>

#include "CudaTestSupport.h"

using namespace hearth;
using namespace hearth::test;

namespace {

double tolFor(const std::string& model) {
    if (model.find("f32") != std::string::npos || model.find("stories") != std::string::npos) return 1e-3;
    if (model.find("f16") != std::string::npos) return 2e-3;
    return 5e-2;
}

const std::vector<std::string>& tinyModels() {
    static const std::vector<std::string> m = {
        "tiny-llama-f16.gguf",    "tiny-qwen2-f32.gguf",    "tiny-llama-q8_0.gguf",   "tiny-qwen2-q8_0.gguf",
        "tiny-llama-q4_0.gguf",   "tiny-llama-q4_k_m.gguf", "tiny-qwen3-q4_k_m.gguf", "tiny-llama-q5_k_m.gguf",
        "tiny-llama-q6_k.gguf",   "tiny-llama-q3_k_m.gguf", "tiny-llama-q2_k.gguf"};
    return m;
}

// The first reference case of a model: its prompt plus reference tokens as one teacher-forced run.
std::vector<int32_t> sequenceFor(const std::string& model) {
    const char* file = model.rfind("tiny-", 0) == 0 ? "tiny-random.json" : (model.rfind("coder", 0) == 0 ? "coder.json" : "stories260K.json");
    for (const auto& rc : loadReferenceCases(file))
        if (rc.model == model) {
            std::vector<int32_t> s = rc.promptTokens;
            s.insert(s.end(), rc.tokens.begin(), rc.tokens.end());
            return s;
        }
    return {};
}

struct Comparison {
    double maxErr = 0;
    int steps = 0, sameTop1 = 0;
};

// Prefill of 16 tokens (all logits: the cuBLAS path), then 24 decode steps, GPU vs CPU.
Comparison compareWithCpu(Backend& gpu, Backend& cpu, const std::vector<int32_t>& seq) {
    Comparison c;
    const size_t V = gpu.vocabSize();
    const int32_t prefill = 16;
    const auto table = blockRun(0, 64);
    const std::vector<int32_t> head(seq.begin(), seq.begin() + prefill);
    auto lg = runSlice(gpu, head, 0, table, true);
    auto lc = runSlice(cpu, head, 0, table, true);
    if (lg.size() != lc.size() || lg.empty()) return c;
    auto account = [&](const float* g, const float* r) {
        c.maxErr = std::max(c.maxErr, relErr(g, r, V));
        c.sameTop1 += argmax(g, V) == argmax(r, V);
        ++c.steps;
    };
    for (int32_t i = 0; i < prefill; ++i) account(lg.data() + i * V, lc.data() + i * V);
    for (int32_t p = prefill; p < std::min<int32_t>(prefill + 24, static_cast<int32_t>(seq.size())); ++p) {
        lg = runSlice(gpu, {seq[p]}, p, table);
        lc = runSlice(cpu, {seq[p]}, p, table);
        account(lg.data(), lc.data());
    }
    return c;
}

}  // namespace

TEST(CudaVsCpu, LogitsMatchPerWeightType) {
    SKIP_WITHOUT_GPU();
    std::vector<std::string> models = {"stories260K.gguf", "coder-f16.gguf"};
    models.insert(models.end(), tinyModels().begin(), tinyModels().end());
    int compared = 0, quantRows = 0, quantSame = 0;
    for (const std::string& m : models) {
        const std::string path = modelPath(m);
        if (!std::ifstream(path)) {
            std::printf("  %-26s not present, skipped\n", m.c_str());
            continue;
        }
        auto cpu = cpuBackend(path);
        if (!cpu) {
            std::printf("  %-26s the CPU backend cannot run it yet (%s), skipped\n", m.c_str(), cpu.error().message.c_str());
            continue;
        }
        auto gpu = gpuBackend(path);
        ASSERT_TRUE(gpu.ok()) << m << ": " << gpu.error().toString();
        const auto seq = sequenceFor(m);
        ASSERT_GE(seq.size(), 40u) << m;
        const Comparison c = compareWithCpu(**gpu, **cpu, seq);
        std::printf("  %-26s max rel err %.2e over %d rows, top-1 equal %d/%d\n", m.c_str(), c.maxErr, c.steps,
                    c.sameTop1, c.steps);
        EXPECT_GT(c.steps, 30) << m;
        EXPECT_LE(c.maxErr, tolFor(m)) << m;
        const bool quantized = tolFor(m) > 1e-2;
        EXPECT_GE(c.sameTop1 * 100, c.steps * (quantized ? 90 : 100)) << m;
        if (quantized) {
            quantRows += c.steps;
            quantSame += c.sameTop1;
        }
        ++compared;
    }
    EXPECT_GE(compared, 3);
    if (quantRows) {
        std::printf("  quantized models: top-1 equal on %d/%d rows (%.1f%%)\n", quantSame, quantRows, 100.0 * quantSame / quantRows);
        EXPECT_GE(quantSame * 100, quantRows * 97);
    }
}

TEST(CudaVsCpu, KvCacheDtypes) {
    SKIP_WITHOUT_GPU();
    const std::string path = modelPath("tiny-llama-f16.gguf");
    const auto seq = sequenceFor("tiny-llama-f16.gguf");
    struct Case {
        KvDType gpu, cpu;
        double tol;
        int minTop1Pct;
    };
    for (const Case& k : {Case{KvDType::Q8_0, KvDType::Q8_0, 2e-3, 97}, Case{KvDType::FP8_E4M3, KvDType::F16, 0.15, 75}}) {
        auto gpu = gpuBackend(path, oneGpu(), 96, k.gpu);
        auto cpu = cpuBackend(path, 96, k.cpu);
        ASSERT_TRUE(gpu.ok() && cpu.ok());
        const Comparison c = compareWithCpu(**gpu, **cpu, seq);
        std::printf("  KV %s: max rel err %.2e, top-1 equal %d/%d\n", k.gpu == KvDType::Q8_0 ? "q8_0" : "fp8", c.maxErr,
                    c.sameTop1, c.steps);
        EXPECT_LE(c.maxErr, k.tol);
        EXPECT_GE(c.sameTop1 * 100, c.steps * k.minTop1Pct);
    }
}

namespace {

void maskEog(const GgufFile& f, float* l) {
    for (const char* key : {"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"})
        if (const GgufValue* v = f.find(key); v && v->asU64()) l[*v->asU64()] = -INFINITY;
}

}  // namespace

// Trained models: token for token, free-running (greedy, EOS masked as the references were made).
TEST(CudaReference, FloatModelsMatchLlamaCppTokenForToken) {
    SKIP_WITHOUT_GPU();
    for (const char* file : {"stories260K.json", "coder.json"}) {
        for (const auto& rc : loadReferenceCases(file)) {
            const std::string path = modelPath(rc.model);
            if (!std::ifstream(path)) {
                std::printf("  %s not present, skipped\n", rc.model.c_str());
                break;
            }
            auto gpu = gpuBackend(path);
            ASSERT_TRUE(gpu.ok()) << gpu.error().toString();
            auto f = GgufFile::open(path);
            const size_t V = (*gpu)->vocabSize();
            const auto table = blockRun(0, static_cast<int32_t>(rc.promptTokens.size()) + rc.n + 1);
            auto l = runSlice(**gpu, rc.promptTokens, 0, table);
            int32_t pos = static_cast<int32_t>(rc.promptTokens.size());
            std::vector<int32_t> out;
            for (int i = 0; i < rc.n; ++i) {
                maskEog(**f, l.data());
                out.push_back(argmax(l.data(), V));
                l = runSlice(**gpu, {out.back()}, pos++, table);
            }
            EXPECT_EQ(out, rc.tokens) << rc.model << " prompt '" << rc.prompt << "'";
        }
    }
}

// Random-weight models, teacher-forced: the argmax is the reference token on >= 95% of the steps
// (the CPU backend's own rate on these files is 95-100%), and every other step is a near-tie of
// the two candidates (within 3% of the logit: the drift of quantized inputs described above).
TEST(CudaReference, RandomModelsTop1AgreesWithLlamaCpp) {
    SKIP_WITHOUT_GPU();
    struct Tally {
        int exact = 0, steps = 0;
    };
    std::map<std::string, Tally> by;
    for (const auto& rc : loadReferenceCases("tiny-random.json")) {
        auto gpu = gpuBackend(modelPath(rc.model));
        ASSERT_TRUE(gpu.ok()) << rc.model << ": " << gpu.error().toString();
        auto f = GgufFile::open(modelPath(rc.model));
        const size_t V = (*gpu)->vocabSize();
        const auto table = blockRun(0, static_cast<int32_t>(rc.promptTokens.size()) + rc.n + 1);
        auto l = runSlice(**gpu, rc.promptTokens, 0, table);
        int32_t pos = static_cast<int32_t>(rc.promptTokens.size());
        Tally& t = by[rc.model];
        for (int i = 0; i < rc.n; ++i) {
            maskEog(**f, l.data());
            const int32_t ours = argmax(l.data(), V), ref = rc.tokens[i];
            ++t.steps;
            if (ours == ref) {
                ++t.exact;
            } else {
                const float gap = l[ours] - l[ref];
                EXPECT_LE(gap, 3e-2f * std::max(1.0f, std::fabs(l[ours])))
                    << rc.model << " step " << i << ": ours " << ours << " vs reference " << ref;
            }
            l = runSlice(**gpu, {ref}, pos++, table);
        }
    }
    for (const auto& [m, t] : by) {
        std::printf("  %-26s %3d/%3d steps exact\n", m.c_str(), t.exact, t.steps);
        EXPECT_GE(t.exact * 100, t.steps * 95) << m;
    }
}
