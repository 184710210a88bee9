#pragma once
// A measuring aid: with HEARTH_STEP_LOG=FILE set, one line per engine step is appended to FILE
// ("seqs tokens drafts prefill forward_ms step_ms emitted"), so the cost of speculative
// verification steps can be set against plain decode steps on a real run. Off (no file, no
// clock reads beyond the step's own) when the variable is unset or empty.
//
// Invariants: enabled() only goes from true to false (a write failure closes the file and turns
// the trace off, never the engine's step).

#include <cstdint>
#include <cstdio>

namespace hearth {

class StepTrace {
public:
    StepTrace();
    ~StepTrace();
    StepTrace(const StepTrace&) = delete;
    StepTrace& operator=(const StepTrace&) = delete;

    bool enabled() const { return file_ != nullptr; }
    void record(int32_t seqs, int32_t tokens, int32_t drafts, int64_t prefill, double forwardSeconds,
                double stepSeconds, int64_t emitted);

private:
    std::FILE* file_ = nullptr;
};

}  // namespace hearth
