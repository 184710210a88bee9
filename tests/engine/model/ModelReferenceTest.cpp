// The CPU forward pass against llama.cpp's greedy continuations (../shared/testdata/reference).
//
// Real trained models (stories260K, coder) must match token for token, free-running. Random-weight
// models have flat logits, so they run teacher-forced: at each step our argmax must be the reference
// token unless the two candidates' logits are within rounding of each other (then the step is
// counted as a tie and the reference token is fed, so one tie cannot cascade).
//
// "Within rounding" depends on the weights' type. Float models: 0.2% of the logit. Quantized models
// multiply 8-bit-quantized activations (ggml's Q8_0/Q8_K pairing, which we follow): each activation
// carries up to half a quantization step (amax/254) of error, which on these random models moves
// logits by ~0.5% (measured: our own Q8 path vs the same weights dequantized to f32 differ by up to
// 0.28 on logits near 20). Two implementations whose quantized activations differ in a few elements
// can therefore disagree where the top two are within ~1.5%; anything larger is a bug. At least 95%
// of steps must still agree exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ReferenceCases.h"
#include "cpu/CpuBackend.h"

using namespace hearth;

namespace {

struct Runner {
    std::unique_ptr<cpu::CpuBackend> backend;
    std::vector<float> logits;

    explicit Runner(const std::string& model) {
        auto b = cpu::CpuBackend::open(test::modelPath(model), 2);
        EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().toString());
        if (b.ok()) backend = std::move(*b);
        if (backend) EXPECT_TRUE(backend->allocateKv(64, KvDType::F16).ok());
    }

    std::vector<int32_t> table(int32_t positions) const {
        std::vector<int32_t> t;
        for (int32_t i = 0; i * kBlockSize < positions; ++i) t.push_back(i);
        return t;
    }

    // Feeds `tokens` at startPos; returns the logits of the last one.
    const float* step(const std::vector<int32_t>& tokens, int32_t startPos) {
        ForwardBatch b;
        b.addSequence(tokens, startPos, table(startPos + static_cast<int32_t>(tokens.size())), false, true);
        auto st = backend->forward(b, logits);
        EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().toString());
        return logits.data();
    }
};

int32_t argmax(const float* l, uint32_t n) { return static_cast<int32_t>(std::max_element(l, l + n) - l); }

// The references were generated with --ignore-eos, which gives end-of-generation tokens a -inf bias.
void maskEog(const std::string& model, float* l) {
    auto f = GgufFile::open(test::modelPath(model));
    for (const char* key : {"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"})
        if (const GgufValue* v = (*f)->find(key); v && v->asU64()) l[*v->asU64()] = -INFINITY;
}

void runFreeRunning(const test::ReferenceCase& rc) {
    Runner r(rc.model);
    ASSERT_TRUE(r.backend);
    const uint32_t V = r.backend->vocabSize();
    std::vector<int32_t> out;
    const float* l = r.step(rc.promptTokens, 0);
    int32_t pos = static_cast<int32_t>(rc.promptTokens.size());
    for (int i = 0; i < rc.n; ++i) {
        maskEog(rc.model, r.logits.data());
        const int32_t t = argmax(l, V);
        out.push_back(t);
        l = r.step({t}, pos++);
    }
    EXPECT_EQ(out, rc.tokens) << rc.model << " prompt '" << rc.prompt << "'";
}

bool quantized(const std::string& model) {
    return model.find("-f16") == std::string::npos && model.find("-f32") == std::string::npos;
}

struct ForcedResult {
    int exact = 0, ties = 0, steps = 0;
};

ForcedResult runTeacherForced(const test::ReferenceCase& rc) {
    ForcedResult res;
    Runner r(rc.model);
    if (!r.backend) return res;
    const uint32_t V = r.backend->vocabSize();
    const float* l = r.step(rc.promptTokens, 0);
    int32_t pos = static_cast<int32_t>(rc.promptTokens.size());
    for (int i = 0; i < rc.n; ++i) {
        maskEog(rc.model, r.logits.data());
        const int32_t ours = argmax(l, V), ref = rc.tokens[i];
        ++res.steps;
        if (ours == ref) {
            ++res.exact;
        } else {
            const float gap = l[ours] - l[ref];
            const float rel = quantized(rc.model) ? 1.5e-2f : 2e-3f;
            const float tol = rel * std::max(1.0f, std::fabs(l[ours]));
            EXPECT_LE(gap, tol) << rc.model << " '" << rc.prompt << "' step " << i << ": ours " << ours << " ("
                                << l[ours] << ") vs reference " << ref << " (" << l[ref] << ")";
            ++res.ties;
        }
        l = r.step({ref}, pos++);
    }
    return res;
}

}  // namespace

TEST(ModelReference, Stories260KMatchesLlamaCppTokenForToken) {
    for (const auto& rc : test::loadReferenceCases("stories260K.json")) runFreeRunning(rc);
}

TEST(ModelReference, CoderModelsMatchLlamaCppTokenForToken) {
    for (const auto& rc : test::loadReferenceCases("coder.json")) runFreeRunning(rc);
}

TEST(ModelReference, RandomWeightModelsAgreeExceptNearTies) {
    std::map<std::string, ForcedResult> byModel;
    for (const auto& rc : test::loadReferenceCases("tiny-random.json")) {
        auto r = runTeacherForced(rc);
        auto& m = byModel[rc.model];
        m.exact += r.exact;
        m.ties += r.ties;
        m.steps += r.steps;
    }
    for (const auto& [model, r] : byModel) {
        std::printf("  %-26s %3d/%3d steps exact, %d near-ties\n", model.c_str(), r.exact, r.steps, r.ties);
        EXPECT_GT(r.steps, 0) << model;
        // Near-ties are rare; many of them would mean a systematic numeric difference.
        EXPECT_GE(r.exact * 100, r.steps * 95) << model;
    }
}

TEST(ModelReference, BatchedPrefillEqualsTokenByToken) {
    // The same prompt fed in one chunk and one token at a time gives the same next-token logits.
    Runner a("stories260K.gguf"), b("stories260K.gguf");
    ASSERT_TRUE(a.backend && b.backend);
    const std::vector<int32_t> prompt = {1, 403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315, 421, 395, 317,
                                         426, 338, 401, 396, 267};
    const float* la = a.step(prompt, 0);
    std::vector<float> first(la, la + a.backend->vocabSize());
    const float* lb = nullptr;
    for (size_t i = 0; i < prompt.size(); ++i) lb = b.step({prompt[i]}, static_cast<int32_t>(i));
    for (uint32_t v = 0; v < a.backend->vocabSize(); ++v) EXPECT_NEAR(first[v], lb[v], 1e-4f * std::max(1.0f, std::fabs(first[v])));
}
