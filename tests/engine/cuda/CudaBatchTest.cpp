// Batching on the GPU: a sequence's logits do not depend on its batch-mates, continuing from
// existing (or restored) KV blocks equals a fresh run, device sampling draws what the host
// Sampler draws, and bad requests or impossible sizes are errors, not crashes.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>

#include "CudaTestSupport.h"
#include "core/Half.h"
#include "gguf/GgufWriter.h"
#include "sampling/Sampler.h"

using namespace hearth;
using namespace hearth::test;

namespace {

const std::vector<int32_t> kA = {1, 403, 407, 261, 378, 432, 383};
const std::vector<int32_t> kB = {1, 286, 261, 376, 298};
const std::vector<int32_t> kC = {1, 315, 421, 395, 317, 426, 338, 401, 396, 267, 300, 301};

}  // namespace

TEST(CudaBatch, DecodeLogitsDoNotDependOnBatchMates) {
    SKIP_WITHOUT_GPU();
    for (const char* model : {"tiny-llama-q4_k_m.gguf", "tiny-llama-f16.gguf"}) {
        auto solo = gpuBackend(modelPath(model));
        auto group = gpuBackend(modelPath(model));
        ASSERT_TRUE(solo.ok() && group.ok());
        const size_t V = (*solo)->vocabSize();
        for (Backend* b : {solo->get(), group->get()}) {  // identical prefills, one sequence per call
            runSlice(*b, kA, 0, {0});
            runSlice(*b, kB, 0, {1});
            runSlice(*b, kC, 0, {2, 3});  // C reaches position 17: two blocks
        }
        for (int step = 0; step < 6; ++step) {
            const int32_t tok = 300 + step;
            auto alone = runSlice(**solo, {tok}, static_cast<int32_t>(kA.size()) + step, {0});
            runSlice(**solo, {tok}, static_cast<int32_t>(kB.size()) + step, {1});
            runSlice(**solo, {tok}, static_cast<int32_t>(kC.size()) + step, {2, 3});
            // Steps 0..3: A and B in one step (A second), C alone. Up to kDecodeGemvMaxT (2)
            // sequences per decode step every kernel computes a row the same way: bit-identical.
            // Steps 4, 5: all three, and quantized weights take the tensor-core kernel (f16
            // products instead of the matrix-vector kernels' int8 ones): close, the same top token
            // (the batch-invariant mode keeps those bit-identical: BatchInvariantModeGivesBitIdenticalRows).
            const bool three = step >= 4;
            ForwardBatch fb;
            fb.addSequence({tok}, static_cast<int32_t>(kB.size()) + step, {1}, false, true);
            fb.addSequence({tok}, static_cast<int32_t>(kA.size()) + step, {0}, false, true);
            if (three) fb.addSequence({tok}, static_cast<int32_t>(kC.size()) + step, {2, 3}, false, true);
            else runSlice(**group, {tok}, static_cast<int32_t>(kC.size()) + step, {2, 3});
            std::vector<float> together;
            ASSERT_TRUE((*group)->forward(fb, together).ok());
            if (!three) {
                for (size_t i = 0; i < V; ++i) ASSERT_EQ(alone[i], together[V + i]) << model << " step " << step << " logit " << i;
            } else {
                EXPECT_LE(relErr(together.data() + V, alone.data(), V), 3e-2) << model << " step " << step;
                EXPECT_EQ(argmax(together.data() + V, V), argmax(alone.data(), V)) << model << " step " << step;
            }
        }
    }
}

TEST(CudaBatch, MixedPrefillAndDecodeStepStaysClose) {
    SKIP_WITHOUT_GPU();
    auto solo = gpuBackend(modelPath("tiny-llama-q8_0.gguf"));
    auto mixed = gpuBackend(modelPath("tiny-llama-q8_0.gguf"));
    ASSERT_TRUE(solo.ok() && mixed.ok());
    const size_t V = (*solo)->vocabSize();
    runSlice(**solo, kA, 0, {0});
    runSlice(**mixed, kA, 0, {0});
    auto decodeAlone = runSlice(**solo, {300}, static_cast<int32_t>(kA.size()), {0});
    auto prefillAlone = runSlice(**solo, kC, 0, {2}, true);
    ForwardBatch fb;  // one decode token and a 12-token prefill: 13 tokens, the cuBLAS path
    fb.addSequence({300}, static_cast<int32_t>(kA.size()), {0}, false, true);
    fb.addSequence(kC, 0, {2}, true, false);
    std::vector<float> l;
    ASSERT_TRUE((*mixed)->forward(fb, l).ok());
    ASSERT_EQ(l.size(), (1 + kC.size()) * V);
    // The decode row goes through the cuBLAS path here and the int8 matrix-vector kernels alone:
    // the quantized-input drift of CudaReferenceTest applies.
    EXPECT_LE(relErr(l.data(), decodeAlone.data(), V), 4e-2);
    EXPECT_EQ(argmax(l.data(), V), argmax(decodeAlone.data(), V));
    for (size_t r = 0; r < kC.size(); ++r) EXPECT_LE(relErr(l.data() + (1 + r) * V, prefillAlone.data() + r * V, V), 1e-2) << r;
}

// EngineConfig::batchInvariant: a row's logits are bit-identical whatever shares its step and
// however its own tokens are grouped: a prompt fed one token per step equals the same prompt in
// one 80-token step (the cuBLAS-sized path otherwise), and a decode token next to other
// sequences' prefills (9..64 tokens: the tensor-core path otherwise) equals it alone. This is
// what makes batched speculative verification give exactly the tokens of plain decoding.
TEST(CudaBatch, BatchInvariantModeGivesBitIdenticalRows) {
    SKIP_WITHOUT_GPU();
    for (const char* model : {"tiny-llama-q4_k_m.gguf", "tiny-llama-q8_0.gguf", "tiny-llama-f16.gguf"}) {
        for (KvDType kv : {KvDType::F16, KvDType::FP8_E4M3}) {
            auto solo = gpuBackend(modelPath(model), oneGpu(), 96, kv, true);
            auto group = gpuBackend(modelPath(model), oneGpu(), 96, kv, true);
            ASSERT_TRUE(solo.ok() && group.ok()) << (solo.ok() ? "" : solo.error().toString());
            const size_t V = (*solo)->vocabSize();
            std::vector<int32_t> prompt;
            for (int i = 0; i < 80; ++i) prompt.push_back(1 + (i * 53) % 500);
            const auto table = blockRun(0, 96);
            std::vector<float> oneByOne;  // row i: logits after prompt[0..i], one token per step
            for (size_t i = 0; i < prompt.size(); ++i) {
                auto l = runSlice(**solo, {prompt[i]}, static_cast<int32_t>(i), table);
                oneByOne.insert(oneByOne.end(), l.begin(), l.end());
            }
            auto all = runSlice(**group, prompt, 0, table, true);
            ASSERT_EQ(all.size(), oneByOne.size());
            for (size_t i = 0; i < all.size(); ++i)
                ASSERT_EQ(all[i], oneByOne[i]) << model << " row " << i / V << " logit " << i % V;

            // Sequence 1 (blocks 6..): a short prompt alone, then its decode next to a 30-token
            // prefill of sequence 2 (blocks 12..) in one 31-token step.
            const std::vector<int32_t> t1 = blockRun(6, 32), t2 = blockRun(12, 32);
            runSlice(**solo, kB, 0, t1);
            runSlice(**group, kB, 0, t1);
            auto alone = runSlice(**solo, {300}, static_cast<int32_t>(kB.size()), t1);
            std::vector<int32_t> other(prompt.begin(), prompt.begin() + 30);
            ForwardBatch fb;
            fb.addSequence(other, 0, t2, false, true);
            fb.addSequence({300}, static_cast<int32_t>(kB.size()), t1, false, true);
            std::vector<float> together;
            ASSERT_TRUE((*group)->forward(fb, together).ok());
            ASSERT_EQ(together.size(), 2 * V);
            for (size_t i = 0; i < V; ++i) ASSERT_EQ(alone[i], together[V + i]) << model << " logit " << i;
        }
    }
}

// 9..64 tokens of quantized weights take the fused tensor-core kernel (weights dequantized in
// shared memory); HEARTH_CUDA_NO_MMA turns it off, leaving dequantization + cuBLAS. Both multiply
// the same f16 values with f32 sums, so they agree up to summation order (and the input-rounding
// drift that follows from it).
TEST(CudaBatch, TensorCorePathAgreesWithCublas) {
    SKIP_WITHOUT_GPU();
    for (const char* model : {"tiny-llama-q4_k_m.gguf", "tiny-llama-q8_0.gguf", "tiny-llama-q3_k_m.gguf"}) {
        auto fused = gpuBackend(modelPath(model));
        setenv("HEARTH_CUDA_NO_MMA", "1", 1);
        auto cublas = gpuBackend(modelPath(model));
        unsetenv("HEARTH_CUDA_NO_MMA");
        ASSERT_TRUE(fused.ok() && cublas.ok());
        const size_t V = (*fused)->vocabSize();
        for (int T : {12, 40, 64}) {
            std::vector<int32_t> toks;
            for (int i = 0; i < T; ++i) toks.push_back(1 + (i * 53) % 500);
            const auto table = blockRun(0, T);
            auto a = runSlice(**fused, toks, 0, table, true);
            auto b = runSlice(**cublas, toks, 0, table, true);
            ASSERT_EQ(a.size(), static_cast<size_t>(T) * V);
            ASSERT_EQ(b.size(), a.size());
            double worst = 0;
            int same = 0;
            for (int r = 0; r < T; ++r) {
                worst = std::max(worst, relErr(a.data() + r * V, b.data() + r * V, V));
                same += argmax(a.data() + r * V, V) == argmax(b.data() + r * V, V);
            }
            std::printf("  %-24s %2d tokens: max rel err %.2e, top-1 equal %d/%d\n", model, T, worst, same, T);
            EXPECT_LE(worst, 3e-2) << model << " T=" << T;
            EXPECT_GE(same * 100, T * 90) << model << " T=" << T;
        }
    }
}

TEST(CudaBatch, ContinuingFromCachedBlocksEqualsAFreshRun) {
    SKIP_WITHOUT_GPU();
    auto b = gpuBackend(modelPath("tiny-llama-f16.gguf"));
    ASSERT_TRUE(b.ok());
    const size_t V = (*b)->vocabSize();
    std::vector<int32_t> seq;
    for (int i = 0; i < 40; ++i) seq.push_back(1 + (i * 37) % 500);
    auto fresh = runSlice(**b, seq, 0, {10, 11, 12});
    // The first 32 positions (two full blocks) once, then a sequence sharing them continues.
    runSlice(**b, std::vector<int32_t>(seq.begin(), seq.begin() + 32), 0, {20, 21});
    const std::vector<int32_t> tail(seq.begin() + 32, seq.end());
    auto reused = runSlice(**b, tail, 32, {20, 21, 22});
    EXPECT_LE(relErr(reused.data(), fresh.data(), V), 2e-3);
    EXPECT_EQ(argmax(reused.data(), V), argmax(fresh.data(), V));

    // Blocks copied to host memory and back (after being overwritten) restore the same state.
    const uint64_t bb = (*b)->kvBlockBytes(KvDType::F16);
    std::vector<uint8_t> saved(2 * bb);
    const int32_t ids[2] = {20, 21};
    ASSERT_TRUE((*b)->copyBlocksToHost(ids, saved.data()).ok());
    runSlice(**b, std::vector<int32_t>(32, 7), 0, {20, 21});
    ASSERT_TRUE((*b)->copyBlocksFromHost(ids, saved.data()).ok());
    auto restored = runSlice(**b, tail, 32, {20, 21, 23});
    for (size_t i = 0; i < V; ++i) ASSERT_EQ(restored[i], reused[i]) << i;
}

// A prompt's later attention tiles read the keys of its earlier tiles only once this step has
// stored them: whatever the blocks held before changes no logit, bit for bit. (The tensor-core
// kernel once copied a tile's first key chunk before waiting for the kernel storing the step's keys
// when the chunk lay before the tile's first token rather than the step's: rows 32-39 of a
// 40-token qwen3 prompt, its third tile, differed between two backends in 5 of 6 trials with a build
// of the eleventh session, in none of 6 with the fix, same test binary. The race needs a timing
// the test does not force, the final tree did not show it unfixed: a guard, not a detector.)
// Prompts of three to seven tiles (16 tokens a tile at two query heads per KV head), in fresh
// blocks, in blocks holding another sequence's keys, continued in a second step; qwen3 (RoPE in its
// own kernel: per-head norms) and llama.
TEST(CudaBatch, PromptsNeverSeeStaleKeys) {
    SKIP_WITHOUT_GPU();
    for (const char* model : {"tiny-qwen3-q4_k_m.gguf", "tiny-llama-q4_k_m.gguf", "tiny-llama-f16.gguf"}) {
        auto fresh = gpuBackend(modelPath(model));
        auto used = gpuBackend(modelPath(model));
        ASSERT_TRUE(fresh.ok() && used.ok()) << model;
        const size_t V = (*fresh)->vocabSize();
        std::mt19937 rng(17);
        auto tokens = [&](int n) {
            std::vector<int32_t> t(static_cast<size_t>(n));
            for (auto& x : t) x = 1 + static_cast<int32_t>(rng() % static_cast<uint32_t>(V - 1));
            return t;
        };
        const auto table = blockRun(0, 128);
        // Fresh blocks, then blocks holding another sequence's keys (every block of the table).
        for (const auto& [n, dirty] : {std::pair{40, false}, std::pair{40, true}, std::pair{100, true}}) {
            if (dirty) runSlice(**used, tokens(128), 0, table, true);
            const auto prompt = tokens(n);
            const auto x = runSlice(**fresh, prompt, 0, table, true), y = runSlice(**used, prompt, 0, table, true);
            ASSERT_EQ(x.size(), y.size());
            std::string rows;
            for (size_t r = 0; r * V < x.size(); ++r)
                if (std::memcmp(&x[r * V], &y[r * V], V * sizeof(float)) != 0) rows += " " + std::to_string(r);
            EXPECT_TRUE(rows.empty()) << model << ", " << n << "-token prompt" << (dirty ? " (stale keys)" : "") << ": rows" << rows;
        }
        // A prompt in two steps: 20 tokens, then 60 more (tiles after the first see both steps' keys).
        runSlice(**used, tokens(128), 0, table, true);
        const auto prompt = tokens(80);
        const std::vector<int32_t> head(prompt.begin(), prompt.begin() + 20), rest(prompt.begin() + 20, prompt.end());
        runSlice(**fresh, head, 0, table);
        runSlice(**used, head, 0, table);
        const auto x = runSlice(**fresh, rest, 20, table, true), y = runSlice(**used, rest, 20, table, true);
        EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)), 0) << model << ": continued prompt";
    }
}

namespace {

TokenId hostDraw(const float* logits, int32_t V, const Backend::RowSampling& r, bool* nearBoundary) {
    SamplingParams sp;
    sp.temperature = r.temperature;
    sp.topK = r.topK;
    sp.topP = r.topP;
    sp.minP = r.minP;
    sp.seed = 1;
    Sampler s(sp);
    std::vector<TokenId> banned;
    for (int32_t id : r.banned)
        if (id >= 0) banned.push_back(id);
    s.setBannedTokens(banned);
    std::vector<Candidate> dist;
    s.distribution(logits, V, {}, dist);
    *nearBoundary = false;
    if (dist.size() == 1) return dist.front().id;
    float cum = 0;
    for (const auto& c : dist) {
        const float prev = cum;
        cum += c.prob;
        if (std::fabs(r.uniform - cum) < 1e-4f || std::fabs(r.uniform - prev) < 1e-4f) *nearBoundary = true;
        if (r.uniform < cum) return c.id;
    }
    return dist.back().id;
}

// banTop: each row bans its own highest logits (as many as RowSampling holds), as ignore_eos bans
// the end-of-generation tokens: the draws must come from the rest, as the host sampler's do.
void checkDeviceSampling(Backend& b, const std::vector<Backend::RowSampling>& settings, int steps, bool banTop = false) {
    const int32_t V = static_cast<int32_t>(b.vocabSize());
    std::mt19937 rng(7);
    const int n = static_cast<int>(settings.size());
    for (int s = 0; s < n; ++s) runSlice(b, {1, 300 + s, 301, 302}, 0, {s});
    int compared = 0, boundary = 0;
    for (int step = 0; step < steps; ++step) {
        ForwardBatch fb;
        for (int s = 0; s < n; ++s) fb.addSequence({310 + step + s}, 4 + step, {s}, false, true);
        std::vector<float> logits;
        ASSERT_TRUE(b.forward(fb, logits).ok());
        std::vector<Backend::RowSampling> rows = settings;
        for (auto& r : rows) r.uniform = std::uniform_real_distribution<float>(0.f, 1.f)(rng);
        for (int s = 0; banTop && s < n; ++s) {
            std::vector<int32_t> ids(V);
            std::iota(ids.begin(), ids.end(), 0);
            const float* l = logits.data() + static_cast<size_t>(s) * V;
            std::partial_sort(ids.begin(), ids.begin() + Backend::RowSampling::kMaxBanned, ids.end(),
                              [&](int32_t a, int32_t c) { return l[a] > l[c]; });
            std::copy(ids.begin(), ids.begin() + Backend::RowSampling::kMaxBanned, rows[s].banned);
        }
        std::vector<TokenId> tokens;
        const Status st = b.forwardSample(fb, rows, tokens);  // the same step again: same KV, same logits
        ASSERT_TRUE(st.ok()) << st.error().toString();
        ASSERT_EQ(tokens.size(), rows.size());
        for (int s = 0; s < n; ++s) {
            bool near = false;
            const TokenId want = hostDraw(logits.data() + static_cast<size_t>(s) * V, V, rows[s], &near);
            if (near) {
                ++boundary;
                continue;
            }
            for (int32_t id : rows[s].banned) EXPECT_NE(tokens[s], id) << "a banned token was drawn";
            EXPECT_EQ(tokens[s], want) << "row " << s << " step " << step << " T=" << rows[s].temperature
                                       << " k=" << rows[s].topK << " p=" << rows[s].topP << " minP=" << rows[s].minP;
            ++compared;
        }
    }
    EXPECT_GT(compared, steps * n / 2);
    std::printf("  %d draws compared, %d skipped at a cumulative boundary\n", compared, boundary);
}

// A random F16 model with a vocabulary larger than the device sampler's candidate cap.
std::string writeWideVocabModel() {
    const std::string path = ::testing::TempDir() + "/hearth-wide-vocab.gguf";
    const uint32_t E = 64, F = 128, V = 4096, H = 2;
    GgufWriter w;
    EXPECT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")).ok());
    auto u32 = [&](const char* k, uint32_t v) { EXPECT_TRUE(w.setMetadata(k, GgufValue::u32(v)).ok()); };
    u32("llama.block_count", 1);
    u32("llama.embedding_length", E);
    u32("llama.feed_forward_length", F);
    u32("llama.attention.head_count", H);
    u32("llama.context_length", 256);
    u32("llama.vocab_size", V);
    EXPECT_TRUE(w.setMetadata("llama.attention.layer_norm_rms_epsilon", GgufValue::f32(1e-5f)).ok());
    std::mt19937 rng(3);
    auto f16 = [&](uint64_t cols, uint64_t rows, float scale) {
        std::vector<uint8_t> b(cols * rows * 2);
        std::normal_distribution<float> nd(0.f, scale);
        for (size_t i = 0; i < cols * rows; ++i) {
            const f16_t h = f32ToF16(nd(rng));
            std::memcpy(b.data() + 2 * i, &h, 2);
        }
        return b;
    };
    auto ones = [](uint64_t n) {
        std::vector<uint8_t> b(n * 4);
        const float one = 1.0f;
        for (uint64_t i = 0; i < n; ++i) std::memcpy(b.data() + 4 * i, &one, 4);
        return b;
    };
    EXPECT_TRUE(w.addTensor("token_embd.weight", TensorType::F16, {E, V}, f16(E, V, 1.0f)).ok());
    EXPECT_TRUE(w.addTensor("output_norm.weight", TensorType::F32, {E}, ones(E)).ok());
    EXPECT_TRUE(w.addTensor("output.weight", TensorType::F16, {E, V}, f16(E, V, 0.3f)).ok());
    EXPECT_TRUE(w.addTensor("blk.0.attn_norm.weight", TensorType::F32, {E}, ones(E)).ok());
    EXPECT_TRUE(w.addTensor("blk.0.ffn_norm.weight", TensorType::F32, {E}, ones(E)).ok());
    for (const char* n : {"attn_q", "attn_k", "attn_v", "attn_output"})
        EXPECT_TRUE(w.addTensor(std::string("blk.0.") + n + ".weight", TensorType::F16, {E, E}, f16(E, E, 0.1f)).ok());
    EXPECT_TRUE(w.addTensor("blk.0.ffn_gate.weight", TensorType::F16, {E, F}, f16(E, F, 0.1f)).ok());
    EXPECT_TRUE(w.addTensor("blk.0.ffn_up.weight", TensorType::F16, {E, F}, f16(E, F, 0.1f)).ok());
    EXPECT_TRUE(w.addTensor("blk.0.ffn_down.weight", TensorType::F16, {F, E}, f16(F, E, 0.1f)).ok());
    EXPECT_TRUE(w.write(path).ok());
    return path;
}

}  // namespace

TEST(CudaBatch, DeviceSamplingDrawsWhatTheHostSamplerDraws) {
    SKIP_WITHOUT_GPU();
    auto b = gpuBackend(modelPath("tiny-llama-q4_k_m.gguf"));
    ASSERT_TRUE(b.ok());
    ASSERT_TRUE((*b)->canSampleOnDevice());
    using R = Backend::RowSampling;
    checkDeviceSampling(**b, {R{0, 0, 1, 0, 0}, R{0.8f, 40, 0.95f, 0.05f, 0}, R{1.2f, 0, 0.9f, 0, 0}, R{0.7f, 0, 1, 0, 0},
                              R{1.0f, 5000, 1, 0.1f, 0}, R{0.5f, 3, 1, 0, 0}},
                        6);
    // Vocabulary 4096 > the device's 1024 candidates: nuclei inside the cap stay on the device,
    // the rest (no truncation at all, top-k above the cap) go through the host fallback.
    auto wide = gpuBackend(writeWideVocabModel());
    ASSERT_TRUE(wide.ok()) << wide.error().toString();
    checkDeviceSampling(**wide, {R{1.0f, 0, 1, 0, 0}, R{1.0f, 2000, 1, 0, 0}, R{0.9f, 0, 0.5f, 0, 0}, R{0, 0, 1, 0, 0},
                                 R{2.0f, 0, 1, 0.2f, 0}},
                        4);
    // Each row's four best tokens banned (greedy, sampled, top-k, nucleus).
    checkDeviceSampling(**b, {R{0, 0, 1, 0, 0}, R{0.8f, 40, 0.95f, 0.05f, 0}, R{1.2f, 0, 0.9f, 0, 0}, R{0.5f, 3, 1, 0, 0}}, 4,
                        true);
}

TEST(CudaBatch, MemoryStatsAndClearErrors) {
    SKIP_WITHOUT_GPU();
    auto b = gpuBackend(modelPath("tiny-llama-q4_k_m.gguf"), oneGpu(), 50);
    ASSERT_TRUE(b.ok());
    const auto stats = (*b)->memoryStats();
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].device, 0);
    EXPECT_GT(stats[0].weights, 500000u);
    EXPECT_EQ(stats[0].kvPool, 50 * (*b)->kvBlockBytes(KvDType::F16));
    EXPECT_GT(stats[0].scratch, 0u);
    EXPECT_LE(stats[0].free, stats[0].total);
    EXPECT_EQ(stats[0].firstLayer, 0);
    EXPECT_EQ(stats[0].lastLayer, 2);
    std::printf("  %s: weights %llu KiB, KV %llu KiB, scratch %llu MiB, free %llu MiB\n", stats[0].name.c_str(),
                static_cast<unsigned long long>(stats[0].weights >> 10), static_cast<unsigned long long>(stats[0].kvPool >> 10),
                static_cast<unsigned long long>(stats[0].scratch >> 20), static_cast<unsigned long long>(stats[0].free >> 20));

    std::vector<float> l;
    ForwardBatch bad;
    bad.addSequence({1, 2}, 0, {50}, false, true);  // block id past the pool
    EXPECT_FALSE((*b)->forward(bad, l).ok());
    ForwardBatch badTok;
    badTok.addSequence({1, 999999}, 0, {0}, false, true);
    EXPECT_EQ((*b)->forward(badTok, l).error().code, ErrorCode::InvalidArgument);
    // A pool far beyond the device's memory is refused with a message, and the backend stays usable.
    const Status huge = (*b)->allocateKv(2000000000u, KvDType::F16);
    EXPECT_EQ(huge.error().code, ErrorCode::OutOfMemory) << huge.error().message;
    ASSERT_TRUE((*b)->allocateKv(20, KvDType::F16).ok());
    EXPECT_EQ(runSlice(**b, kA, 0, {0}).size(), (*b)->vocabSize());
}
