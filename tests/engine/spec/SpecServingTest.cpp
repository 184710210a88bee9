// Speculative decoding in the step loop, over the fake backend (whose KV is the hash of each
// sequence's history, so any KV that survives a rejected draft, or a block hashed with rejected KV,
// changes the output): greedy outputs equal the reference with every proposer, alone, batched,
// under preemption and prefix reuse; stop conditions inside accepted drafts; seeded sampling gives
// the same tokens as without speculation; the token budget, the batch limit and the stats hold.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../runtime/CoreHarness.h"
#include "spec/DomainIndexBuilder.h"

namespace hearth::test {
namespace {
namespace fs = std::filesystem;

EngineConfig specConfig(SpecMethod m, int maxDraft = 8) {
    EngineConfig c;
    c.maxSeqs = 8;
    c.maxBatchTokens = 64;
    c.prefillChunk = 16;
    c.spec.method = m;
    c.spec.maxDraft = maxDraft;
    return c;
}

// The repetitive share of the fake's positions: enough for prompt lookup to be right often.
constexpr int kPattern = 85;

// A target with the pattern, optionally a draft model (pattern share, salt), and fixed planner
// costs: a memory-bound step where a scored token costs 5% of a one-token step (timing the fake's
// steps on a busy machine would make the draft counts vary from run to run; outputs never do).
FakeSpec fakes(int pattern, int draftPattern = -1, uint64_t salt = 1) {
    FakeSpec f;
    f.pattern = pattern;
    f.draftPattern = draftPattern;
    f.draftSalt = salt;
    f.costRatio = 0.05;
    return f;
}

TEST(SpecServing, NGramGreedyMatchesTheReferenceWithFewerSteps) {
    CoreHarness h(specConfig(SpecMethod::NGram), 64, nullptr, Hash128{0xfa4e, 1}, fakes(kPattern));
    const auto prompt = makePrompt(40, 3);
    auto sink = h.submit(greedy(prompt, 160));
    const int steps = h.runUntilIdle();
    ASSERT_TRUE(sink->finished);
    EXPECT_EQ(sink->tokens, h.backend->reference(prompt, 160));
    EXPECT_EQ(sink->usage.completionTokens, 160);
    EXPECT_GT(sink->usage.draftAccepted, 20) << "the repetitive output is predictable";
    EXPECT_LE(sink->usage.draftAccepted, sink->usage.draftProposed);
    EXPECT_LT(steps, 160 - sink->usage.draftAccepted / 2) << "accepted drafts save steps";
    const EngineStats st = h.core->stats(false);
    EXPECT_EQ(st.draftProposedNgram, static_cast<uint64_t>(sink->usage.draftProposed));
    EXPECT_EQ(st.draftAcceptedNgram, static_cast<uint64_t>(sink->usage.draftAccepted));
    EXPECT_EQ(st.draftProposed, st.draftProposedNgram);
    EXPECT_EQ(st.draftProposedModel, 0u);
    EXPECT_GT(st.specSteps, 0u);
    EXPECT_EQ(h.core->kv().pool().numUsed(), 0u) << "every block came back";
}

TEST(SpecServing, DraftModelGreedyMatchesTheReference) {
    const FakeSpec fs = fakes(kPattern, kPattern, 1);
    CoreHarness h(specConfig(SpecMethod::Draft, 6), 64, nullptr, Hash128{0xfa4e, 1}, fs);
    ASSERT_TRUE(h.draft);
    const auto prompt = makePrompt(29, 5);
    auto sink = h.submit(greedy(prompt, 120));
    h.runUntilIdle();
    ASSERT_TRUE(sink->finished);
    EXPECT_EQ(sink->tokens, h.backend->reference(prompt, 120));
    EXPECT_GT(sink->usage.draftAccepted, 10) << "the draft agrees with the target at most positions";
    EXPECT_GT(sink->usage.draftProposed, sink->usage.draftAccepted) << "and not at all of them";
    const EngineStats st = h.core->stats(false);
    EXPECT_EQ(st.draftAcceptedModel, static_cast<uint64_t>(sink->usage.draftAccepted));
    ASSERT_TRUE(h.core->spec()->draftModel());
    EXPECT_EQ(h.core->spec()->draftModel()->kv().pool().numUsed(), 0u) << "the draft's KV is freed with its request";
}

// The draft KV follows the accepted tokens: a draft whose cache had gone wrong would propose from
// a different history (the fake's logits are a function of it), so its acceptance would collapse;
// checked exactly by comparing the runner's cache with the request's tokens after each step.
TEST(SpecServing, DraftModelCacheStaysInStepWithTheAcceptedTokens) {
    const FakeSpec fs = fakes(kPattern, kPattern, 1);
    CoreHarness h(specConfig(SpecMethod::Draft, 5), 64, nullptr, Hash128{0xfa4e, 1}, fs);
    RequestId id = 0;
    auto sink = h.submit(greedy(makePrompt(21, 9), 90), &id);
    while (h.core->hasWork()) {
        ASSERT_TRUE(h.core->step().ok());
        const Request* r = h.core->scheduler().request(id);
        if (!r) break;
        const auto& cached = h.core->spec()->draftModel()->cached(id);
        // The cache may run ahead by unverified drafts, but never disagrees on a kept position.
        const size_t common = std::min(cached.size(), r->tokens.size());
        size_t same = 0;
        while (same < common && cached[same] == r->tokens[same]) ++same;
        EXPECT_GE(same + 8, common) << "the draft cache only differs in its drafted tail";
    }
    EXPECT_EQ(sink->tokens, h.backend->reference(makePrompt(21, 9), 90));
}

TEST(SpecServing, ConcurrentStaggeredRequestsMatchTheReferenceUnderATightBudget) {
    for (SpecMethod m : {SpecMethod::NGram, SpecMethod::Draft}) {
        EngineConfig cfg = specConfig(m);
        cfg.maxBatchTokens = 24;
        cfg.prefillChunk = 8;
        const FakeSpec fs = fakes(kPattern, m == SpecMethod::Draft ? kPattern : -1, 2);
        CoreHarness h(cfg, 96, nullptr, Hash128{0xfa4e, 1}, fs);
        struct Case {
            int promptLen, n, arriveAtStep;
        };
        const std::vector<Case> cases = {{5, 60, 0}, {70, 30, 0}, {17, 45, 2}, {33, 1, 3}, {48, 55, 5}, {1, 70, 9}, {90, 26, 9}};
        std::vector<std::shared_ptr<RecordingSink>> sinks(cases.size());
        int step = 0;
        size_t submitted = 0;
        while (submitted < cases.size() || h.core->hasWork()) {
            for (size_t i = 0; i < cases.size(); ++i)
                if (!sinks[i] && cases[i].arriveAtStep <= step)
                    sinks[i] = h.submit(greedy(makePrompt(cases[i].promptLen, int(i) + 20), cases[i].n)), ++submitted;
            ASSERT_TRUE(h.core->step().ok());
            ASSERT_LT(++step, 10000);
        }
        int accepted = 0;
        for (size_t i = 0; i < cases.size(); ++i) {
            ASSERT_TRUE(sinks[i]->finished) << i;
            EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(cases[i].promptLen, int(i) + 20), cases[i].n))
                << "method " << int(m) << " case " << i;
            accepted += sinks[i]->usage.draftAccepted;
        }
        EXPECT_GT(accepted, 20) << int(m);
        EXPECT_LE(h.backend->maxBatchTokens(), 24u) << "drafts count against the step budget";
        EXPECT_GT(h.backend->maxBatchSeqs(), 3u) << "speculating sequences were batched with the others";
    }
}

TEST(SpecServing, PreemptionUnderATinyPoolKeepsOutputsExact) {
    for (SpecMethod m : {SpecMethod::NGram, SpecMethod::Draft}) {
        EngineConfig cfg = specConfig(m);
        cfg.ramCacheBytes = 0;
        const FakeSpec fs = fakes(kPattern, m == SpecMethod::Draft ? kPattern : -1, 3);
        CoreHarness h(cfg, 14, nullptr, Hash128{0xfa4e, 1}, fs);
        std::vector<std::shared_ptr<RecordingSink>> sinks;
        for (int i = 0; i < 5; ++i) sinks.push_back(h.submit(greedy(makePrompt(20 + 7 * i, 40 + i), 60)));
        h.runUntilIdle();
        for (int i = 0; i < 5; ++i) {
            ASSERT_TRUE(sinks[i]->finished) << i;
            EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(20 + 7 * i, 40 + i), 60)) << int(m) << " " << i;
        }
        EXPECT_GT(h.core->stats(false).preemptions, 0u) << "the pool really was too small";
        EXPECT_EQ(h.core->kv().pool().numUsed(), 0u);
    }
}

// A block is hashed (and shared through the prefix cache) only with accepted KV in it: a second
// request whose prompt is the first one's whole output reuses those blocks, and its output is
// still the reference (a block holding a rejected draft's KV would change the history hash).
TEST(SpecServing, PrefixReuseAfterSpeculationSharesOnlyAcceptedKv) {
    CoreHarness h(specConfig(SpecMethod::NGram, 12), 64, nullptr, Hash128{0xfa4e, 1}, fakes(60));
    const auto prompt = makePrompt(30, 7);
    auto a = h.submit(greedy(prompt, 100));
    h.runUntilIdle();
    ASSERT_TRUE(a->finished);
    ASSERT_GT(a->usage.draftProposed, a->usage.draftAccepted) << "some drafts were rejected";
    std::vector<TokenId> second = prompt;
    second.insert(second.end(), a->tokens.begin(), a->tokens.end());
    auto b = h.submit(greedy(second, 40));
    h.runUntilIdle();
    ASSERT_TRUE(b->finished);
    EXPECT_GE(b->usage.cachedPromptTokens, 112) << "the first request's blocks were cached";
    EXPECT_EQ(b->tokens, h.backend->reference(second, 40));
}

TEST(SpecServing, StopTokenInsideAcceptedDraftsEndsThere) {
    const auto prompt = makePrompt(24, 11);
    FakeBackend probe;
    probe.setPattern(kPattern, 0);
    const auto ref = probe.reference(prompt, 120);
    // A stop token that first occurs late (after drafts have been accepted).
    size_t at = 40;
    while (at < ref.size() && std::find(ref.begin(), ref.begin() + at, ref[at]) != ref.begin() + at) ++at;
    ASSERT_LT(at, ref.size()) << "the reference has a late new token";
    auto tok = std::make_shared<FakeTokenizer>(ref[at]);
    CoreHarness h(specConfig(SpecMethod::NGram), 64, tok, Hash128{0xfa4e, 1}, fakes(kPattern));
    auto s = h.submit(greedy(prompt, 120));
    h.runUntilIdle();
    ASSERT_TRUE(s->finished);
    EXPECT_EQ(s->reason, FinishReason::Stop);
    EXPECT_EQ(s->tokens, std::vector<TokenId>(ref.begin(), ref.begin() + at)) << "the stop token is not shown";
    EXPECT_EQ(s->usage.completionTokens, static_cast<int>(at) + 1);
}

// Length limits and stop strings met partway through a step's accepted tokens: the same tokens,
// text, finish reason and token counts as without speculation.
TEST(SpecServing, LimitsAndStopStringsMatchPlainDecoding) {
    auto tok = std::make_shared<FakeTokenizer>();
    const auto prompt = makePrompt(18, 13);
    FakeBackend probe;
    probe.setPattern(kPattern, 0);
    const std::string refText = tok->decode(probe.reference(prompt, 150), false);
    std::vector<GenerationRequest> reqs;
    for (int n : {1, 2, 3, 37, 101}) reqs.push_back(greedy(prompt, n));
    for (size_t cut : {30u, 65u, 90u}) {
        GenerationRequest r = greedy(prompt, 150);
        r.stop = {refText.substr(cut, 3)};
        reqs.push_back(r);
    }
    for (const GenerationRequest& r : reqs) {
        CoreHarness plain(specConfig(SpecMethod::None), 64, tok, Hash128{0xfa4e, 1}, fakes(kPattern));
        CoreHarness spec(specConfig(SpecMethod::NGram, 16), 64, tok, Hash128{0xfa4e, 1}, fakes(kPattern));
        auto a = plain.submit(r);
        auto b = spec.submit(r);
        plain.runUntilIdle();
        spec.runUntilIdle();
        ASSERT_TRUE(a->finished && b->finished);
        EXPECT_EQ(b->tokens, a->tokens) << r.maxTokens;
        EXPECT_EQ(b->text, a->text);
        EXPECT_EQ(b->reason, a->reason);
        EXPECT_EQ(b->usage.completionTokens, a->usage.completionTokens);
        EXPECT_EQ(spec.core->stats(false).totalGeneratedTokens, plain.core->stats(false).totalGeneratedTokens);
    }
}

// Prompt-lookup verification draws from the target's distribution with the request's RNG exactly
// as plain sampling does, so a seeded request gives the same tokens (penalties included: they see
// the accepted drafts in the history).
TEST(SpecServing, SeededSamplingGivesTheSameTokensAsWithoutSpeculation) {
    for (float penalty : {1.0f, 1.05f}) {
        GenerationRequest r = greedy(makePrompt(30, 17), 120);
        // Mostly the argmax (so the output repeats and drafts get accepted), but every token is a
        // real draw that consumes the RNG, and now and then another token wins.
        r.sampling.temperature = 0.05f;
        r.sampling.topK = 8;
        r.sampling.seed = 1234;
        r.sampling.repeatPenalty = penalty;
        r.sampling.repeatLastN = 16;
        CoreHarness plain(specConfig(SpecMethod::None), 64, nullptr, Hash128{0xfa4e, 1}, fakes(kPattern));
        CoreHarness spec(specConfig(SpecMethod::NGram), 64, nullptr, Hash128{0xfa4e, 1}, fakes(kPattern));
        auto a = plain.submit(r);
        auto b = spec.submit(r);
        plain.runUntilIdle();
        spec.runUntilIdle();
        EXPECT_EQ(b->tokens, a->tokens) << penalty;
        EXPECT_GT(b->usage.draftAccepted, 5) << penalty;
    }
}

TEST(SpecServing, GreedyDraftsVerifiedWithDeviceSampling) {
    CoreHarness h(specConfig(SpecMethod::NGram), 64, nullptr, Hash128{0xfa4e, 1}, fakes(kPattern));
    h.backend->setDeviceSampling(true);
    const auto prompt = makePrompt(16, 19);  // one prefill step, which samples too
    auto s = h.submit(greedy(prompt, 200));
    h.runUntilIdle();
    EXPECT_EQ(s->tokens, h.backend->reference(prompt, 200));
    EXPECT_GT(s->usage.draftAccepted, 10);
    EXPECT_EQ(h.backend->deviceSampledSteps(), h.backend->forwards()) << "every step sampled on the device";
}

TEST(SpecServing, NoSpeculationWhileTheBatchIsLarge) {
    EngineConfig cfg = specConfig(SpecMethod::NGram);
    cfg.spec.disableAboveBatch = 3;
    CoreHarness h(cfg, 96, nullptr, Hash128{0xfa4e, 1}, fakes(kPattern));
    std::vector<std::shared_ptr<RecordingSink>> sinks;
    for (int i = 0; i < 4; ++i) sinks.push_back(h.submit(greedy(makePrompt(10, 30 + i), 50)));
    h.runUntilIdle();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(sinks[i]->tokens, h.backend->reference(makePrompt(10, 30 + i), 50));
    EXPECT_EQ(h.core->stats(false).draftProposed, 0u) << "four decoding sequences >= the limit of three";
}

// On text nobody can predict, the acceptance rate drops and so do the drafts (the planner only
// explores now and then), once each scored token has a cost.
TEST(SpecServing, PoorAcceptanceShrinksTheDrafts) {
    FakeSpec f = fakes(0);
    f.costRatio = 0.3;  // each scored token costs
    CoreHarness h(specConfig(SpecMethod::NGram), 64, nullptr, Hash128{0xfa4e, 1}, f);
    const auto prompt = makePrompt(40, 23);
    auto s = h.submit(greedy(prompt, 300));
    h.runUntilIdle();
    EXPECT_EQ(s->tokens, h.backend->reference(prompt, 300));
    EXPECT_LT(s->usage.draftProposed, 60) << "at most a few drafts after the first rejections";
}

// One token per byte, offset so every fake token id is a printable ASCII character.
class OffsetTokenizer final : public Tokenizer {
public:
    std::vector<TokenId> encode(std::string_view text, TokenizeOptions) const override {
        std::vector<TokenId> out;
        for (char c : text) out.push_back(static_cast<TokenId>(c) - 48);
        return out;
    }
    std::string decode(std::span<const TokenId> ids, bool) const override {
        std::string s;
        for (TokenId id : ids) s += static_cast<char>(id + 48);
        return s;
    }
    std::string tokenPiece(TokenId id) const override { return std::string(1, static_cast<char>(id + 48)); }
    int32_t vocabSize() const override { return 64; }
    TokenId bos() const override { return -1; }
    TokenId eos() const override { return -1; }
    bool addsBos() const override { return false; }
    bool addsEos() const override { return false; }
    const std::vector<TokenId>& endOfGeneration() const override { return eog_; }
    TokenId findSpecial(std::string_view) const override { return -1; }
    std::string bosText() const override { return {}; }
    std::string eosText() const override { return {}; }
    uint64_t fingerprint() const override { return 42; }  // FakeTokenizer's

private:
    std::vector<TokenId> eog_;
};

// The domain index supplies drafts where the request's own tokens have no match: an index built
// from a document containing the continuation makes a short prompt's output predictable.
TEST(SpecServing, DomainIndexDraftsWhenTheOwnContextHasNoMatch) {
    const fs::path dir = fs::temp_directory_path() / ("hearth_spec_index_" + std::to_string(::getpid()));
    fs::create_directories(dir / "docs");
    const auto prompt = makePrompt(12, 29);
    FakeBackend probe;  // plain hashing: the output never repeats itself
    std::vector<TokenId> doc = prompt;
    const auto ref = probe.reference(prompt, 90);
    doc.insert(doc.end(), ref.begin(), ref.end());
    auto otok = std::make_shared<OffsetTokenizer>();
    std::ofstream(dir / "docs" / "a.txt") << otok->decode(doc, false);
    DomainIndexBuilder b(otok);
    b.addPath((dir / "docs").string());
    ASSERT_TRUE(b.build((dir / "ix.bin").string()).ok());
    auto ix = DomainIndex::open((dir / "ix.bin").string(), 42);
    ASSERT_TRUE(ix.ok()) << ix.error().toString();

    FakeSpec fs = fakes(0);
    fs.index = *ix;
    EngineConfig cfg = specConfig(SpecMethod::Index);
    cfg.spec.minNgram = 2;
    CoreHarness h(cfg, 64, std::make_shared<FakeTokenizer>(), Hash128{0xfa4e, 1}, fs);
    auto s = h.submit(greedy(prompt, 90));
    h.runUntilIdle();
    EXPECT_EQ(s->tokens, ref);
    const EngineStats st = h.core->stats(false);
    EXPECT_GT(st.draftAcceptedIndex, 50u) << "the index knew the continuation";
    EXPECT_EQ(st.draftAccepted, st.draftAcceptedIndex + st.draftAcceptedNgram);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace hearth::test
