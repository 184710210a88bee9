// Sampling chain: each stage does what it says, seeds reproduce, draws follow the distribution.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "sampling/Sampler.h"

using namespace hearth;

namespace {

std::vector<float> randomLogits(int n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, 2.0f);
    std::vector<float> l(n);
    for (auto& x : l) x = d(rng);
    return l;
}

SamplingParams plain(float temp) {
    SamplingParams p;
    p.temperature = temp;
    p.topK = 0;
    p.topP = 1.0f;
    p.minP = 0.0f;
    p.seed = 42;
    return p;
}

}  // namespace

TEST(Sampler, GreedyIsArgmaxAndBansWork) {
    auto l = randomLogits(1000, 1);
    const auto best = static_cast<TokenId>(std::max_element(l.begin(), l.end()) - l.begin());
    Sampler s(plain(0.0f));
    EXPECT_EQ(s.sample(l.data(), 1000, {}), best);
    s.setBannedTokens({best});
    EXPECT_NE(s.sample(l.data(), 1000, {}), best);
}

TEST(Sampler, RepetitionAndFrequencyPenalties) {
    std::vector<float> l = {2.0f, 1.9f, -1.0f, 0.5f};
    SamplingParams p = plain(0.0f);
    p.repeatPenalty = 1.5f;
    Sampler s(p);
    std::vector<TokenId> hist = {0};
    EXPECT_EQ(s.sample(l.data(), 4, hist), 1);  // 2.0 / 1.5 < 1.9
    std::vector<Candidate> d;
    Sampler(plain(1.0f)).distribution(l.data(), 4, hist, d);
    p = plain(0.0f);
    p.frequencyPenalty = 0.3f;
    p.presencePenalty = 0.0f;
    Sampler f(p);
    std::vector<TokenId> h2 = {0};
    EXPECT_EQ(f.sample(l.data(), 4, h2), 1);  // 2.0 - 0.3 < 1.9
    std::vector<TokenId> h3 = {1, 1, 0};
    p.frequencyPenalty = 0.05f;
    Sampler f2(p);
    EXPECT_EQ(f2.sample(l.data(), 4, h3), 0);  // 1.95 vs 1.8
}

TEST(Sampler, TruncationStages) {
    auto l = randomLogits(500, 2);
    std::vector<Candidate> d;
    SamplingParams p = plain(1.0f);
    p.topK = 7;
    Sampler(p).distribution(l.data(), 500, {}, d);
    EXPECT_EQ(d.size(), 7u);
    p = plain(1.0f);
    p.topP = 0.5f;
    Sampler(p).distribution(l.data(), 500, {}, d);
    std::vector<Candidate> full;
    Sampler(plain(1.0f)).distribution(l.data(), 500, {}, full);
    double cum = 0;
    size_t need = 0;
    while (cum < 0.5) cum += full[need++].prob;
    EXPECT_EQ(d.size(), need);
    p = plain(1.0f);
    p.minP = 0.2f;
    Sampler(p).distribution(l.data(), 500, {}, d);
    for (const auto& c : d) EXPECT_GE(c.logit, full.front().logit + std::log(0.2f) - 1e-4f);
    for (const auto& c : full)
        if (c.prob >= full.front().prob * 0.2f) EXPECT_TRUE(std::any_of(d.begin(), d.end(), [&](auto& x) { return x.id == c.id; }));
    double sum = 0;
    for (const auto& c : d) sum += c.prob;
    EXPECT_NEAR(sum, 1.0, 1e-5);
}

TEST(Sampler, TemperatureSharpens) {
    auto l = randomLogits(100, 3);
    std::vector<Candidate> hot, cold;
    Sampler(plain(2.0f)).distribution(l.data(), 100, {}, hot);
    Sampler(plain(0.3f)).distribution(l.data(), 100, {}, cold);
    EXPECT_GT(cold.front().prob, hot.front().prob);
    EXPECT_EQ(cold.front().id, hot.front().id);
}

TEST(Sampler, SeedReproducesAndDrawsFollowTheDistribution) {
    auto l = randomLogits(20, 4);
    SamplingParams p = plain(1.0f);
    Sampler a(p), b(p);
    std::vector<TokenId> sa, sb;
    for (int i = 0; i < 200; ++i) {
        sa.push_back(a.sample(l.data(), 20, {}));
        sb.push_back(b.sample(l.data(), 20, {}));
    }
    EXPECT_EQ(sa, sb);
    p.seed = 43;
    Sampler c(p);
    std::vector<TokenId> sc;
    for (int i = 0; i < 200; ++i) sc.push_back(c.sample(l.data(), 20, {}));
    EXPECT_NE(sa, sc);

    std::vector<Candidate> d;
    Sampler(plain(1.0f)).distribution(l.data(), 20, {}, d);
    std::map<TokenId, int> counts;
    const int N = 200000;
    Sampler e(plain(1.0f));
    for (int i = 0; i < N; ++i) counts[e.draw(d)]++;
    double chi2 = 0;
    for (const auto& c : d) {
        const double expct = c.prob * N;
        if (expct < 5) continue;
        chi2 += (counts[c.id] - expct) * (counts[c.id] - expct) / expct;
    }
    EXPECT_LT(chi2, 60.0);  // 19 degrees of freedom: p < 1e-5 above this
}

TEST(Sampler, Logprobs) {
    auto l = randomLogits(50, 5);
    auto lp = Sampler::logprobs(l.data(), 50, 3, 5);
    ASSERT_EQ(lp.top.size(), 5u);
    double sum = 0;
    for (float x : l) sum += std::exp(static_cast<double>(x));
    EXPECT_NEAR(lp.logprob, l[3] - std::log(sum), 1e-4);
    for (size_t i = 1; i < lp.top.size(); ++i) EXPECT_GE(lp.top[i - 1].second, lp.top[i].second);
}

TEST(Sampler, AllowedMaskConstrains) {
    auto l = randomLogits(30, 6);
    std::vector<bool> allowed(30, false);
    allowed[7] = allowed[11] = true;
    Sampler s(plain(1.0f));
    for (int i = 0; i < 50; ++i) {
        const TokenId t = s.sample(l.data(), 30, {}, &allowed);
        EXPECT_TRUE(t == 7 || t == 11);
    }
}
