#include "runtime/StepTrace.h"

#include <cstdlib>

namespace hearth {

StepTrace::StepTrace() {
    const char* path = std::getenv("HEARTH_STEP_LOG");
    if (path && *path) file_ = std::fopen(path, "a");
    if (file_) std::fputs("# seqs tokens drafts prefill forward_ms step_ms emitted\n", file_);
}

StepTrace::~StepTrace() {
    if (file_) std::fclose(file_);
}

void StepTrace::record(int32_t seqs, int32_t tokens, int32_t drafts, int64_t prefill, double forwardSeconds,
                       double stepSeconds, int64_t emitted) {
    if (!file_) return;
    if (std::fprintf(file_, "%d %d %d %lld %.4f %.4f %lld\n", seqs, tokens, drafts, static_cast<long long>(prefill),
                     forwardSeconds * 1e3, stepSeconds * 1e3, static_cast<long long>(emitted)) < 0) {
        std::fclose(file_);
        file_ = nullptr;
    }
}

}  // namespace hearth
