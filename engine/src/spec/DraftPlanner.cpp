#include "spec/DraftPlanner.h"

#include <algorithm>
#include <cmath>

namespace hearth {
namespace {
constexpr double kRoundPrior = 0.25;  // a draft round, as a share of a one-token target step, until measured
constexpr double kSpecPriorWeight = 3.0;
}

double DraftPlanner::predictPlain(double n) const {
    if (fixedRatio_ >= 0) return 1 + fixedRatio_ * n;
    return plain_.empty() && !spec_.empty() ? spec_.predict(n) : plain_.predict(n);
}

// Until the spec model has seen a few steps, it leans on the plain one (a single slow first
// sample must not switch speculation off for good).
double DraftPlanner::predictSpec(double n) const {
    if (fixedRatio_ >= 0) return predictPlain(n);
    if (spec_.empty() || plain_.empty()) return spec_.empty() ? predictPlain(n) : spec_.predict(n);
    const double w = spec_.weight();
    return (w * spec_.predict(n) + kSpecPriorWeight * plain_.predict(n)) / (w + kSpecPriorWeight);
}

void DraftPlanner::recordStep(int32_t tokens, bool withDrafts, double seconds) {
    (withDrafts ? spec_ : plain_).add(tokens, seconds);
}

void DraftPlanner::recordDraftRound(double seconds) {
    roundSeconds_ = roundSeconds_ < 0 ? seconds : 0.8 * roundSeconds_ + 0.2 * seconds;
}

void DraftPlanner::plan(std::span<const Seq> seqs, std::vector<int32_t>& k) {
    k.assign(seqs.size(), 0);
    gains_.clear();
    for (size_t i = 0; i < seqs.size(); ++i) {
        const double a = std::clamp(seqs[i].alpha, 0.0, 0.999);
        double g = 1;
        for (int32_t j = 1; j <= seqs[i].limit; ++j) {
            g *= a;
            if (g < 1e-3) break;
            gains_.push_back({g, static_cast<int32_t>(i), j});
        }
    }
    if (gains_.empty()) return;
    // Descending gain; for equal gains shallower first, so the order is a prefix per sequence.
    std::sort(gains_.begin(), gains_.end(), [](const Gain& x, const Gain& y) {
        return x.g != y.g ? x.g > y.g : x.depth != y.depth ? x.depth < y.depth : x.seq < y.seq;
    });
    const double b = static_cast<double>(seqs.size());
    const bool measured = roundSeconds_ >= 0 && fixedRatio_ < 0;
    const double round = modelRounds_ ? (measured ? roundSeconds_ : kRoundPrior * predictPlain(1)) : 0.0;
    double best = b / predictPlain(b);
    size_t bestM = 0;
    double expected = b;
    int32_t depth = 0;
    const bool optimistic = fixedRatio_ < 0 && ++plans_ % kOptimisticEvery == 0;
    if (optimistic) {
        const size_t top = std::min<size_t>(seqs.size() + gains_.size() + 1, StepCostModel::kMaxSize);
        floor_.assign(top, 0.0);
        double f = 0;
        for (size_t n = 0; n < top; ++n) {
            if (plain_.known(static_cast<double>(n))) f = std::max(f, plain_.predict(static_cast<double>(n)));
            if (spec_.known(static_cast<double>(n))) f = std::max(f, spec_.predict(static_cast<double>(n)));
            floor_[n] = f;
        }
    }
    for (size_t m = 1; m <= gains_.size(); ++m) {
        expected += gains_[m - 1].g;
        depth = std::max(depth, gains_[m - 1].depth);
        const double n = b + static_cast<double>(m);
        double cost = predictSpec(n);
        if (optimistic && !spec_.known(n)) {
            const size_t i = static_cast<size_t>(n);
            cost = i < floor_.size() && floor_[i] > 0 ? std::min(cost, floor_[i]) : cost * kOptimism;
        }
        const double rate = expected / (cost + round * depth);
        if (rate > best) {
            best = rate;
            bestM = m;
        }
    }
    // Explore often while the spec model knows little, rarely once it has a record.
    const int every = spec_.weight() < 8 ? kExploreEvery / 8 : kExploreEvery;
    if (bestM == 0 && ++sinceSpec_ >= every) {
        // Explore: the first draft of every sequence that has one.
        for (size_t m = 0; m < gains_.size(); ++m)
            if (gains_[m].depth == 1) ++k[gains_[m].seq];
        sinceSpec_ = 0;
        return;
    }
    if (bestM > 0) sinceSpec_ = 0;
    for (size_t m = 0; m < bestM; ++m) ++k[gains_[m].seq];
}

}  // namespace hearth
