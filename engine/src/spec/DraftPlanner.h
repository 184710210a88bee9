#pragma once
// Chooses how many draft tokens each decoding sequence gets in a step: the adaptive draft length.
//
// A sequence's j-th draft token only counts when every draft before it is accepted, so with a
// running acceptance rate α its expected gain is α^j tokens. Costs come from measured steps: one
// StepCostModel for plain decode steps and one for steps that verify drafts (a backend may run
// plain decodes on a faster path, e.g. CUDA graphs), plus, for a draft model, the measured time of
// one drafting round (batched over the sequences). The planner takes draft tokens in order of
// expected gain and keeps the count that maximises expected tokens per second; that count is zero
// when speculation would not pay (a large batch, a poor acceptance rate, a slow draft model). Every
// kExploreEvery plans that chose nothing (an eighth of that while the spec model has seen fewer
// than 8 steps, whose predictions lean on the plain model meanwhile), it tries one draft per
// sequence anyway, so the cost models keep seeing steps with drafts when conditions change. Step
// costs need not be linear in the step size (see StepCostModel); every kOptimisticEvery plans, step
// sizes the spec model has not measured yet are priced at the most a smaller measured size cost
// (plain or with drafts: a step never costs less than a smaller one), or kOptimism times the fit
// when none is smaller, so the planner tries them and learns the real cost of sizes on both sides
// of a jump (the CUDA backend's 8 → 9 tokens) within a few steps.
//
// Invariants: plan() gives each sequence at most its limit; the returned counts are a prefix of the
// gain order, so a sequence's k only ever drops tokens from its end.

#include <cstdint>
#include <span>
#include <vector>

#include "spec/StepCostModel.h"

namespace hearth {

class DraftPlanner {
public:
    static constexpr int kExploreEvery = 64;
    static constexpr int kOptimisticEvery = 4;
    static constexpr double kOptimism = 0.7;

    struct Seq {
        double alpha = 0.5;  // acceptance rate estimate per draft token
        int32_t limit = 0;   // drafts available / allowed (proposal length, context, max tokens)
    };

    // modelRounds: drafts cost a draft-model round per depth (a draft model), not nothing.
    explicit DraftPlanner(bool modelRounds) : modelRounds_(modelRounds) {}

    // k[i] for each sequence (all of them decode in this step, one token each plus their drafts).
    void plan(std::span<const Seq> seqs, std::vector<int32_t>& k);

    // Tests: no measuring; a step of N tokens costs 1 + ratio·N, a draft round a quarter of a step.
    void fixCosts(double ratio) { fixedRatio_ = ratio; }

    // Measured target steps (forward and verification), and draft-model rounds.
    void recordStep(int32_t tokens, bool withDrafts, double seconds);
    void recordDraftRound(double seconds);

    const StepCostModel& plainCost() const { return plain_; }
    const StepCostModel& specCost() const { return spec_; }

private:
    double predictPlain(double n) const;
    double predictSpec(double n) const;

    bool modelRounds_;
    double fixedRatio_ = -1;
    StepCostModel plain_, spec_;
    double roundSeconds_ = -1;  // EMA; < 0: none measured
    int sinceSpec_ = 0;
    uint64_t plans_ = 0;
    struct Gain {
        double g;
        int32_t seq, depth;
    };
    std::vector<Gain> gains_;
    std::vector<double> floor_;  // optimistic plans: the largest measured cost of any size <= n
};

}  // namespace hearth
