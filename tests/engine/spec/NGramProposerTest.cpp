// Prompt-lookup proposer against a brute-force reference, and its cost on long contexts.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "spec/NGramProposer.h"

using namespace hearth;

namespace {

// Brute force: longest n in [minN, maxN] whose suffix occurs earlier; most recent earlier occurrence.
std::vector<TokenId> reference(const std::vector<TokenId>& h, int minN, int maxN, int draft) {
    const size_t end = h.size();
    for (int n = std::min<int>(maxN, static_cast<int>(end)); n >= minN; --n) {
        for (size_t e = end - 1; e >= static_cast<size_t>(n); --e) {  // earlier n-gram ends at e < end
            if (std::equal(h.begin() + (e - n), h.begin() + e, h.begin() + (end - n))) {
                std::vector<TokenId> out;
                for (size_t i = e; i < end && out.size() < static_cast<size_t>(draft); ++i) out.push_back(h[i]);
                return out;
            }
            if (e == static_cast<size_t>(n)) break;
        }
    }
    return {};
}

}  // namespace

TEST(NGramProposer, MatchesBruteForceOnRandomSequences) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        const int vocab = 2 + trial % 6;
        NGramProposer p(1 + trial % 2, 4);
        std::vector<TokenId> h;
        std::vector<TokenId> out;
        for (int i = 0; i < 60; ++i) {
            const TokenId t = static_cast<TokenId>(rng() % vocab);
            h.push_back(t);
            p.append(t);
            p.propose(5, out);
            EXPECT_EQ(out, reference(h, 1 + trial % 2, 4, 5)) << "trial " << trial << " step " << i;
        }
    }
}

TEST(NGramProposer, ProposesTheRepeatedContinuation) {
    NGramProposer p(2, 4);
    std::vector<TokenId> code = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 99, 10, 11, 12};
    p.append(code);
    std::vector<TokenId> out;
    p.propose(4, out);
    EXPECT_EQ(out, (std::vector<TokenId>{13, 14, 15, 16}));
}

TEST(NGramProposer, LinearCostOnLongContexts) {
    // 32k tokens of mostly unique text: appending and proposing at every step stays cheap.
    std::mt19937 rng(9);
    NGramProposer p(1, 4);
    std::vector<TokenId> out;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 32768; ++i) {
        p.append(static_cast<TokenId>(rng() % 50000));
        p.propose(8, out);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 2.0);  // a quadratic scan would take minutes
}
