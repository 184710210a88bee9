#include "runtime/EngineMetrics.h"

#include <algorithm>
#include <cmath>

namespace hearth {

void EngineMetrics::push(std::vector<double>& ring, size_t& next, double v) {
    if (ring.size() < kSamples) {
        ring.push_back(v);
    } else {
        ring[next] = v;
        next = (next + 1) % kSamples;
    }
}

void EngineMetrics::recordStep(Clock::time_point end, double seconds, int64_t prefillTokens, int64_t decodeTokens) {
    steps_.push_back({end, seconds, prefillTokens, decodeTokens});
    const auto horizon = end - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(window_));
    while (!steps_.empty() && steps_.front().end < horizon) steps_.pop_front();
}

double EngineMetrics::percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    // Nearest rank: the smallest value with at least p of the samples at or below it.
    const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

void EngineMetrics::fill(EngineStats& s, Clock::time_point now) const {
    // Throughput over wall-clock time: the tokens of the recent steps over the span from the first
    // of them to now (at most the window), so an idle engine's rates decay towards zero.
    const auto windowDur = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(window_));
    const auto horizon = now - windowDur;
    int64_t prefill = 0, decode = 0;
    Clock::time_point first = now;
    for (const Step& st : steps_) {
        if (st.end < horizon) continue;
        prefill += st.prefill;
        decode += st.decode;
        const auto begin = st.end - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(st.seconds));
        first = std::min(first, std::max(begin, horizon));
    }
    const double span = std::chrono::duration<double>(now - first).count();
    s.prefillTokPerSec = span > 0 ? static_cast<double>(prefill) / span : 0;
    s.decodeTokPerSec = span > 0 ? static_cast<double>(decode) / span : 0;
    s.ttftP50Ms = percentile(ttft_, 0.50);
    s.ttftP95Ms = percentile(ttft_, 0.95);
    s.itlP50Ms = percentile(itl_, 0.50);
    s.itlP95Ms = percentile(itl_, 0.95);
}

}  // namespace hearth
