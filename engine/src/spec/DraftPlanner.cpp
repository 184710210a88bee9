#include "spec/DraftPlanner.h"

#include <algorithm>
#include <cmath>

namespace hearth {
namespace {
constexpr double kRoundPrior = 0.25;  // a draft round, as a share of a one-token target step, until measured
}

double DraftPlanner::predictPlain(double n) const { return plain_.empty() && !spec_.empty() ? spec_.predict(n) : plain_.predict(n); }
double DraftPlanner::predictSpec(double n) const { return spec_.empty() ? predictPlain(n) : spec_.predict(n); }

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
    const double round = modelRounds_ ? (roundSeconds_ >= 0 ? roundSeconds_ : kRoundPrior * predictPlain(1)) : 0.0;
    double best = b / predictPlain(b);
    size_t bestM = 0;
    double expected = b;
    int32_t depth = 0;
    for (size_t m = 1; m <= gains_.size(); ++m) {
        expected += gains_[m - 1].g;
        depth = std::max(depth, gains_[m - 1].depth);
        const double rate = expected / (predictSpec(b + static_cast<double>(m)) + round * depth);
        if (rate > best) {
            best = rate;
            bestM = m;
        }
    }
    if (bestM == 0 && ++sinceSpec_ >= kExploreEvery) {
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
