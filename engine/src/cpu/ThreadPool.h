#pragma once
// A fixed set of worker threads for data-parallel loops in the CPU backend.
//
// Invariants: the calling thread takes part as worker 0, so run() with n threads uses n-1 pool
// threads; run() returns only after every task index in [0, nTasks) has been executed exactly once;
// workers spin briefly between back-to-back run() calls (one per layer op) before sleeping, so a
// decode step does not pay a wake-up per matmul. Not reentrant: one run() at a time.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hearth::cpu {

class ThreadPool {
public:
    explicit ThreadPool(int threads);  // threads <= 0: physical cores
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return static_cast<int>(workers_.size()) + 1; }

    // fn(task, worker) for task in [0, nTasks); worker in [0, size()).
    void run(int64_t nTasks, const std::function<void(int64_t task, int worker)>& fn);

    static int defaultThreads();

private:
    void workerLoop(int worker);

    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_;
    const std::function<void(int64_t, int)>* fn_ = nullptr;
    int64_t nTasks_ = 0;
    std::atomic<int64_t> next_{0};
    std::atomic<int> pending_{0};
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
};

}  // namespace hearth::cpu
