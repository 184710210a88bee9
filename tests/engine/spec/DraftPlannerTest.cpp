// The adaptive draft length's cost side: StepCostModel follows a linear cost, and learns a jump in
// cost at a step size (the CUDA backend's 8 → 9 token kernel switch and graph padding), so the
// planner settles on the longest draft that stays below the jump instead of one past it.
#include <gtest/gtest.h>

#include "spec/DraftPlanner.h"
#include "spec/StepCostModel.h"

namespace hearth {
namespace {

TEST(StepCostModel, FitsALinearCost) {
    StepCostModel m;
    for (int rep = 0; rep < 3; ++rep)
        for (int n = 1; n <= 40; n += 3) m.add(n, 1.0 + 0.1 * n);
    EXPECT_NEAR(m.predict(50), 6.0, 0.05);   // not seen: the fit
    EXPECT_NEAR(m.predict(100), 11.0, 0.1);
    EXPECT_NEAR(m.predict(4), 1.4, 1e-9);    // seen: its own average
}

TEST(StepCostModel, LearnsAJumpBetweenSizes) {
    StepCostModel m;
    for (int rep = 0; rep < 4; ++rep) {
        m.add(8, 1.0);
        m.add(9, 3.0);
    }
    EXPECT_NEAR(m.predict(8), 1.0, 1e-9);
    EXPECT_NEAR(m.predict(9), 3.0, 1e-9);
    EXPECT_GT(m.predict(12), m.predict(8));  // unseen sizes: the fit through both
}

// A GPU-like target: up to 8 tokens a step costs about the same, from 9 on much more.
double gpuStep(int tokens) { return tokens <= 8 ? 1.0 + 0.01 * tokens : 2.5 + 0.01 * tokens; }

TEST(DraftPlanner, StopsBelowACostJump) {
    DraftPlanner p(false);
    std::vector<DraftPlanner::Seq> seqs(1);
    seqs[0].alpha = 0.9;
    seqs[0].limit = 12;
    std::vector<int32_t> k;
    int atSeven = 0;
    for (int step = 0; step < 200; ++step) {
        p.plan(seqs, k);
        const int n = 1 + k[0];
        p.recordStep(n, k[0] > 0, gpuStep(n));
        if (step >= 150) atSeven += k[0] == 7;
    }
    // 8 tokens (7 drafts) give 1 + 0.9 + ... + 0.9^7 = 5.7 tokens per 1.08; 9 or more tokens cost
    // more than twice as much for at most 1.9 more.
    EXPECT_GE(atSeven, 45) << "the planner should settle on 7 drafts";
}

TEST(DraftPlanner, UsesEveryDraftWhenCostIsFlat) {
    DraftPlanner p(false);
    std::vector<DraftPlanner::Seq> seqs(1);
    seqs[0].alpha = 0.9;
    seqs[0].limit = 12;
    std::vector<int32_t> k;
    int atTwelve = 0;
    for (int step = 0; step < 200; ++step) {
        p.plan(seqs, k);
        const int n = 1 + k[0];
        p.recordStep(n, k[0] > 0, 1.0 + 0.01 * n);
        if (step >= 150) atTwelve += k[0] == 12;
    }
    EXPECT_GE(atTwelve, 45);
}

}  // namespace
}  // namespace hearth
