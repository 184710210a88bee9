#pragma once
// How long a forward step over N tokens takes, learned from measured steps: T(N) = a + b·N by
// least squares over exponentially decayed samples (recent steps count most, so it follows load
// changes). With too little spread in N to separate a from b, the slope comes from a prior ratio
// b/a (the per-token share of a one-token step). Outliers (a step the OS delayed) are capped at a
// few times the prediction once a few steps are in.
//
// Invariants: predict() is positive and non-decreasing in N; empty() until the first sample; the
// decayed weights sum to at most 1 / (1 - decay).

#include <cstdint>

namespace hearth {

class StepCostModel {
public:
    explicit StepCostModel(double priorRatio = 0.1, double decay = 0.97) : prior_(priorRatio), decay_(decay) {}

    void add(double tokens, double seconds);
    bool empty() const { return w_ == 0; }
    double weight() const { return w_; }  // decayed sample count
    // Seconds for a step of n tokens (empty(): 1 + priorRatio·n, in arbitrary units).
    double predict(double n) const;
    // The fitted a and b (for tests and logs).
    void fit(double& a, double& b) const;

private:
    double prior_, decay_;
    double w_ = 0, sn_ = 0, st_ = 0, snn_ = 0, snt_ = 0;
};

}  // namespace hearth
