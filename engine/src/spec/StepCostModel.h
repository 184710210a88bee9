#pragma once
// How long a forward step over N tokens takes, learned from measured steps: T(N) = a + b·N by
// least squares over exponentially decayed samples (recent steps count most, so it follows load
// changes). With too little spread in N to separate a from b, the slope comes from a prior ratio
// b/a (the per-token share of a one-token step). Outliers (a step the OS delayed) are capped at a
// few times the prediction once a few steps are in. A backend's cost is not always linear: the CUDA
// backend pads steps to graph sizes and switches kernels above 8 tokens, so a 9-token step can cost
// far more than an 8-token one. Sizes seen at least kSizeSamples times are therefore predicted from
// their own running average, and the fit covers the sizes not seen yet.
//
// Invariants: predict() is positive; the fit part is non-decreasing in N; empty() until the first
// sample; the decayed weights sum to at most 1 / (1 - decay); sizeT_[n] is meaningful only when
// sizeCount_[n] > 0.

#include <cstdint>
#include <vector>

namespace hearth {

class StepCostModel {
public:
    explicit StepCostModel(double priorRatio = 0.1, double decay = 0.97) : prior_(priorRatio), decay_(decay) {}

    void add(double tokens, double seconds);
    bool empty() const { return w_ == 0; }
    double weight() const { return w_; }  // decayed sample count
    // Seconds for a step of n tokens (empty(): 1 + priorRatio·n, in arbitrary units).
    double predict(double n) const;
    // Whether steps of n tokens have been seen often enough to be predicted from their own average.
    bool known(double n) const;
    // The fitted a and b (for tests and logs).
    void fit(double& a, double& b) const;

    static constexpr int kMaxSize = 1024;    // sizes tracked one by one: [0, kMaxSize)
    static constexpr int kSizeSamples = 1;   // samples of a size before its own average is used

private:
    double fitPredict(double n) const;

    double prior_, decay_;
    double w_ = 0, sn_ = 0, st_ = 0, snn_ = 0, snt_ = 0;
    std::vector<double> sizeT_;       // running average seconds per step size
    std::vector<uint8_t> sizeCount_;  // samples seen per size (saturating)
};

}  // namespace hearth
