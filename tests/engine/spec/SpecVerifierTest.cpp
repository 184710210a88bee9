// Speculative rejection sampling keeps the target's distribution: many seeded verifications of
// drafts drawn from a deliberately different draft distribution q, and the emitted tokens follow
// the target's p (chi-square goodness of fit), at the first position and, after an accepted
// draft, at the next; the acceptance rate is the theoretical sum_x min(p(x), q(x)). Point-mass
// drafts (prompt lookup) give exactly the tokens plain seeded sampling gives.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "spec/SpecVerifier.h"

namespace hearth {
namespace {

constexpr int kVocab = 8;

SamplingParams plainSampling(uint64_t seed) {
    SamplingParams s;
    s.temperature = 1.0f;
    s.topK = 0;
    s.topP = 1.0f;
    s.minP = 0.0f;
    s.seed = seed;
    return s;
}

std::vector<double> softmax(const std::vector<float>& logits) {
    double m = *std::max_element(logits.begin(), logits.end()), sum = 0;
    std::vector<double> p(logits.size());
    for (size_t i = 0; i < p.size(); ++i) sum += p[i] = std::exp(logits[i] - m);
    for (double& x : p) x /= sum;
    return p;
}

// Pearson's chi-square of observed counts against expected probabilities.
double chiSquare(const std::vector<int>& counts, const std::vector<double>& p) {
    double n = 0, chi = 0;
    for (int c : counts) n += c;
    for (size_t i = 0; i < p.size(); ++i) {
        const double e = n * p[i];
        chi += (counts[i] - e) * (counts[i] - e) / e;
    }
    return chi;
}

// 7 degrees of freedom: P(chi2 > 24.3) = 0.001, so a correct sampler fails this about once in a
// thousand seeds (the seeds are fixed, so it never flakes); a biased one (e.g. emitting q's draft
// on rejection, or accepting with q's ratio inverted) gives chi-square values in the hundreds.
constexpr double kChi7 = 24.3;

TEST(SpecVerifier, DraftModelRejectionSamplingKeepsTheTargetDistribution) {
    // Target rows for two positions, and draft distributions that disagree with them.
    const std::vector<float> target0 = {2.0f, 1.5f, 1.0f, 0.5f, 0.0f, -0.5f, -1.0f, 0.8f};
    const std::vector<float> target1 = {-1.0f, 0.0f, 2.2f, 0.3f, 1.1f, -0.2f, 0.6f, 0.0f};
    const std::vector<float> extra = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
    std::vector<float> rows;
    for (const auto* r : {&target0, &target1, &extra}) rows.insert(rows.end(), r->begin(), r->end());
    const auto p0 = softmax(target0), p1 = softmax(target1);
    const std::vector<double> q0 = {0.05, 0.05, 0.30, 0.30, 0.10, 0.10, 0.05, 0.05};
    const std::vector<double> q1 = {0.30, 0.20, 0.05, 0.05, 0.10, 0.10, 0.10, 0.10};
    auto asCandidates = [](const std::vector<double>& q) {
        std::vector<Candidate> c;
        for (int i = 0; i < kVocab; ++i) c.push_back({i, 0.0f, static_cast<float>(q[i])});
        std::sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) { return a.prob > b.prob; });
        return c;
    };
    const std::vector<std::vector<Candidate>> dists = {asCandidates(q0), asCandidates(q1)};

    std::mt19937_64 draftRng(7);
    std::discrete_distribution<int> drawQ0(q0.begin(), q0.end()), drawQ1(q1.begin(), q1.end());
    std::vector<int> first(kVocab, 0), second(kVocab, 0);
    int accepted0 = 0;
    const int trials = 60000;
    SpecVerifier verifier;
    std::vector<TokenId> out;
    for (int t = 0; t < trials; ++t) {
        Sampler sampler(plainSampling(1000 + t));
        const std::vector<TokenId> drafts = {drawQ0(draftRng), drawQ1(draftRng)};
        SpecVerifier::Input in;
        in.rows = rows.data();
        in.vocab = kVocab;
        in.drafts = drafts;
        in.draftDists = &dists;
        out.clear();
        const int acc = verifier.verify(sampler, in, out);
        ASSERT_EQ(out.size(), static_cast<size_t>(acc) + 1);
        ++first[out[0]];
        if (acc >= 1) {
            ASSERT_EQ(out[0], drafts[0]);
            ++accepted0;
            ++second[out[1]];
        }
    }
    double expectedAccept = 0;
    for (int i = 0; i < kVocab; ++i) expectedAccept += std::min(p0[i], q0[i]);
    EXPECT_NEAR(static_cast<double>(accepted0) / trials, expectedAccept, 0.01);
    EXPECT_GT(expectedAccept, 0.3);
    EXPECT_LT(expectedAccept, 0.8) << "the test needs rejections to mean anything";
    EXPECT_LT(chiSquare(first, p0), kChi7) << "first emitted token is not distributed as the target's";
    EXPECT_LT(chiSquare(second, p1), kChi7) << "token after an accepted draft is not distributed as the target's";

    // The same counts against q (what a wrong verifier would emit) are far off: the test can fail.
    EXPECT_GT(chiSquare(first, q0), 10 * kChi7);
}

TEST(SpecVerifier, PointMassDraftsGiveThePlainSeededTokens) {
    // Row j's logits do not depend on the history here, so plain sampling of three tokens draws
    // from rows 0, 1, 2 in order; verification with any drafts must emit the same prefix.
    std::vector<float> rows;
    std::mt19937 g(3);
    std::normal_distribution<float> n(0, 1.5f);
    for (int i = 0; i < 3 * kVocab; ++i) rows.push_back(n(g));
    for (uint64_t seed = 1; seed <= 300; ++seed) {
        Sampler plain(plainSampling(seed));
        std::vector<TokenId> ref;
        for (int j = 0; j < 3; ++j) ref.push_back(plain.sample(rows.data() + j * kVocab, kVocab, {}));
        // Drafts: the right first token half the time, something else otherwise.
        const std::vector<TokenId> drafts = {seed % 2 ? ref[0] : (ref[0] + 1) % kVocab, ref[1]};
        Sampler spec(plainSampling(seed));
        SpecVerifier v;
        SpecVerifier::Input in;
        in.rows = rows.data();
        in.vocab = kVocab;
        in.drafts = drafts;
        std::vector<TokenId> out;
        const int acc = v.verify(spec, in, out);
        ASSERT_EQ(out.size(), static_cast<size_t>(acc) + 1);
        for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], ref[i]) << "seed " << seed << " position " << i;
        if (seed % 2 == 0) EXPECT_EQ(acc, 0);
        else EXPECT_EQ(acc, 2);
    }
}

}  // namespace
}  // namespace hearth
