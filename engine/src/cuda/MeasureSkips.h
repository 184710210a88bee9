#pragma once
// HEARTH_CUDA_SKIP=attention,rope,prep,gemv,mma,reduce (or joined by '+'; measuring only): the
// named kernels of a step are not launched (kqmath, mmamath: the k-quant matrix-vector and the
// tensor-core kernels run without their arithmetic, copying their weights only, and the latter its
// inputs; mmaw, mmax: the tensor-core kernels copy no weights / no inputs), so a benchmark's step
// time without them shows what they cost inside the real step (PDL overlap and all), which
// per-kernel profiles of serialized launches cannot. The outputs are garbage while it is set;
// nothing but the benchmarks should set it.
#include <cstdlib>
#include <string>

namespace hearth::cuda {

inline bool measureSkips(const char* stage) {
    static const std::string list = [] {
        const char* v = std::getenv("HEARTH_CUDA_SKIP");
        std::string s;
        if (v) s.append(",").append(v).append(",");
        for (char& c : s)
            if (c == '+') c = ',';  // "mmamath+mmax": device-run.sh splits a bench spec's settings at commas
        return s;
    }();
    std::string key(",");
    key.append(stage).append(",");
    return !list.empty() && list.find(key) != std::string::npos;
}

}  // namespace hearth::cuda
