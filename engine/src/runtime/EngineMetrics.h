#pragma once
// Rolling measurements for EngineStats: prefill/decode token rates over the last few seconds and
// percentiles of time-to-first-token and inter-token latency over the most recent requests/tokens.
//
// Invariants: the step window only holds steps newer than windowSeconds (trimmed on record);
// the latency rings hold at most kSamples values each, the newest overwriting the oldest.

#include <chrono>
#include <cstdint>
#include <deque>
#include <vector>

#include "hearth/engine.h"

namespace hearth {

class EngineMetrics {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr size_t kSamples = 2048;

    explicit EngineMetrics(double windowSeconds = 5.0) : window_(windowSeconds) {}

    void recordStep(Clock::time_point end, double seconds, int64_t prefillTokens, int64_t decodeTokens);
    void recordTtft(double ms) { push(ttft_, ttftNext_, ms); }
    void recordItl(double ms) { push(itl_, itlNext_, ms); }

    // Fills the rate and percentile fields of stats.
    void fill(EngineStats& stats, Clock::time_point now) const;

    static double percentile(std::vector<double> values, double p);

private:
    struct Step {
        Clock::time_point end;
        double seconds;
        int64_t prefill, decode;
    };
    static void push(std::vector<double>& ring, size_t& next, double v);

    double window_;
    std::deque<Step> steps_;
    std::vector<double> ttft_, itl_;
    size_t ttftNext_ = 0, itlNext_ = 0;
};

}  // namespace hearth
