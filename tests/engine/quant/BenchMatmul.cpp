// bench_matmul: throughput of cpu::matmul per weight type, for a decode-shaped problem (a few
// tokens: memory bound, reported in GB/s of weights) and a prefill-shaped one (many tokens:
// compute bound, reported in GFLOP/s). Not a test; run it on a quiet machine.
//
//   bench_matmul [--threads N] [--rows R] [--cols C] [--decode-tokens T] [--prefill-tokens T]
//                [--types q8_0,q4_K,...] [--seconds S]
// HEARTH_CPU_KERNELS=scalar|avx2|avx512 caps the kernel variant.
#include <time.h>

#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "KernelTestUtil.h"
#include "cpu/Matmul.h"
#include "cpu/ThreadPool.h"

using namespace hearth;

namespace {

double processCpuSeconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Wall seconds per call; cpuSeconds receives the process CPU time per call (with one thread it is
// the kernel's own time even on a busy machine).
double secondsOf(const std::function<void()>& f, double minSeconds, double& cpuSeconds) {
    f();  // warm up
    int iters = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = processCpuSeconds();
    double el = 0;
    do {
        f();
        ++iters;
        el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (el < minSeconds);
    cpuSeconds = (processCpuSeconds() - c0) / iters;
    return el / iters;
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 0;
    int64_t rows = 4096, cols = 4096, decodeTok = 1, prefillTok = 256;
    double minSeconds = 0.5;
    std::string typeList = "f16,q8_0,q4_0,q4_1,q5_0,q5_1,q2_K,q3_K,q4_K,q5_K,q6_K,bf16,f32";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--threads") threads = std::atoi(v.c_str());
        else if (a == "--rows") rows = std::atoll(v.c_str());
        else if (a == "--cols") cols = std::atoll(v.c_str());
        else if (a == "--decode-tokens") decodeTok = std::atoll(v.c_str());
        else if (a == "--prefill-tokens") prefillTok = std::atoll(v.c_str());
        else if (a == "--types") typeList = v;
        else if (a == "--seconds") minSeconds = std::atof(v.c_str());
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    cpu::ThreadPool pool(threads);
    cpu::MatmulScratch scratch;
    std::printf("kernels %s, %d threads, W %lld x %lld\n", quant::activeKernels().name, pool.size(),
                static_cast<long long>(rows), static_cast<long long>(cols));
    std::printf("%-6s %10s %8s %8s %8s   %10s %8s %8s %9s\n", "type", "decode ms", "cpu ms", "GB/s", "GFLOP/s",
                "prefill ms", "cpu ms", "GFLOP/s", "tok/s");
    std::stringstream ss(typeList);
    for (std::string name; std::getline(ss, name, ',');) {
        auto t = tensorTypeFromName(name);
        if (!t || !cpu::matmulSupports(*t) || cols % traits(*t).blockSize != 0) {
            std::printf("%-6s unsupported\n", name.c_str());
            continue;
        }
        const auto w = test::makeWeights(*t, rows, cols, 1);
        const cpu::WeightView view{*t, rows, cols, w.bytes.data()};
        const int64_t maxTok = std::max(decodeTok, prefillTok);
        const auto x = test::randomFloats(static_cast<size_t>(maxTok * cols), 2);
        std::vector<float> y(static_cast<size_t>(maxTok * rows));
        double dc = 0, pc = 0;
        const double d = secondsOf([&] { cpu::matmul(view, x.data(), decodeTok, y.data(), pool, scratch); }, minSeconds, dc);
        const double p = prefillTok > 0
                             ? secondsOf([&] { cpu::matmul(view, x.data(), prefillTok, y.data(), pool, scratch); }, minSeconds, pc)
                             : 0;
        const double wBytes = static_cast<double>(w.rowBytes) * rows;
        const double flop = 2.0 * rows * cols;
        std::printf("%-6s %10.3f %8.3f %8.2f %8.2f   %10.3f %8.3f %8.2f %9.1f\n", std::string(tensorTypeName(*t)).c_str(),
                    d * 1e3, dc * 1e3, wBytes / d / 1e9, flop * decodeTok / d / 1e9, p * 1e3, pc * 1e3,
                    p > 0 ? flop * prefillTok / p / 1e9 : 0.0, p > 0 ? prefillTok / p : 0.0);
    }
    return 0;
}
