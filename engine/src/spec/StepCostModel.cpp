#include "spec/StepCostModel.h"

#include <algorithm>

namespace hearth {

void StepCostModel::add(double n, double t) {
    if (!(t >= 0) || !(n >= 0)) return;
    // A step the OS delayed (preempted thread, page faults) says little about the next one: once
    // the model has seen a few steps, cap a sample at a few times the prediction.
    if (w_ >= 8) t = std::min(t, 4 * predict(n));
    const int size = static_cast<int>(n);
    if (size == n && size < kMaxSize) {
        if (sizeT_.empty()) {
            sizeT_.assign(kMaxSize, 0.0);
            sizeCount_.assign(kMaxSize, 0);
        }
        sizeT_[size] = sizeCount_[size] ? 0.75 * sizeT_[size] + 0.25 * t : t;
        if (sizeCount_[size] < 255) ++sizeCount_[size];
    }
    w_ = w_ * decay_ + 1;
    sn_ = sn_ * decay_ + n;
    st_ = st_ * decay_ + t;
    snn_ = snn_ * decay_ + n * n;
    snt_ = snt_ * decay_ + n * t;
}

void StepCostModel::fit(double& a, double& b) const {
    if (w_ == 0) {
        a = 1;
        b = prior_;
        return;
    }
    const double mn = sn_ / w_, mt = st_ / w_;
    const double var = snn_ / w_ - mn * mn;
    const double cov = snt_ / w_ - mn * mt;
    // Enough spread (a token's worth of standard deviation) and a sensible slope: use the fit.
    if (var >= 1.0 && cov > 0) {
        b = cov / var;
        a = mt - b * mn;
        const double minA = 0.2 * mt;  // a step never costs (almost) nothing at N = 0
        if (a >= minA) return;
        a = minA;
        b = (mt - a) / std::max(mn, 1e-9);
        return;
    }
    // Otherwise the mean step, split by the prior ratio: mt = a (1 + prior · mn).
    a = mt / (1 + prior_ * mn);
    b = prior_ * a;
}

bool StepCostModel::known(double n) const {
    const int size = static_cast<int>(n);
    return size == n && size >= 0 && size < static_cast<int>(sizeCount_.size()) && sizeCount_[size] >= kSizeSamples;
}

double StepCostModel::predict(double n) const {
    if (known(n)) return std::max(1e-9, sizeT_[static_cast<int>(n)]);
    return fitPredict(n);
}

double StepCostModel::fitPredict(double n) const {
    double a, b;
    fit(a, b);
    return std::max(1e-9, a + b * std::max(0.0, n));
}

}  // namespace hearth
