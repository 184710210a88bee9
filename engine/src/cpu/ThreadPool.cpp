#include "cpu/ThreadPool.h"

#include <chrono>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace hearth::cpu {
namespace {
inline void cpuRelax() {
#if defined(__x86_64__)
    _mm_pause();
#endif
}
}  // namespace

int ThreadPool::defaultThreads() {
    const unsigned hc = std::thread::hardware_concurrency();
    return hc == 0 ? 1 : static_cast<int>(hc);
}

ThreadPool::ThreadPool(int threads) {
    if (threads <= 0) threads = defaultThreads();
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lk(mu_);
        stop_ = true;
        generation_.fetch_add(1);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::run(int64_t nTasks, const std::function<void(int64_t, int)>& fn) {
    if (nTasks <= 0) return;
    if (workers_.empty() || nTasks == 1) {
        for (int64_t t = 0; t < nTasks; ++t) fn(t, 0);
        return;
    }
    {
        std::lock_guard<std::mutex> lk(mu_);
        fn_ = &fn;
        nTasks_ = nTasks;
        next_.store(0);
        pending_.store(static_cast<int>(workers_.size()));
        generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    for (int64_t t; (t = next_.fetch_add(1)) < nTasks;) fn(t, 0);
    while (pending_.load(std::memory_order_acquire) != 0) cpuRelax();
}

void ThreadPool::workerLoop(int worker) {
    uint64_t seen = 0;
    for (;;) {
        // Spin for a while (the next op usually follows within microseconds), then sleep.
        const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::microseconds(2000);
        while (generation_.load(std::memory_order_acquire) == seen && !stop_.load()) {
            if (std::chrono::steady_clock::now() > spinUntil) {
                std::unique_lock<std::mutex> lk(mu_);
                cv_.wait(lk, [&] { return generation_.load() != seen || stop_.load(); });
                break;
            }
            for (int i = 0; i < 64; ++i) cpuRelax();
        }
        if (stop_.load()) return;
        seen = generation_.load(std::memory_order_acquire);
        const auto* fn = fn_;
        const int64_t n = nTasks_;
        for (int64_t t; (t = next_.fetch_add(1)) < n;) (*fn)(t, worker);
        pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
}

}  // namespace hearth::cpu
