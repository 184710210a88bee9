#pragma once
// A persistent thread that runs one pipeline stage's share of a step, so that stages on different
// devices work on different micro-batches at the same time.
//
// Invariants: jobs run one at a time, in submission order; wait() returns after every job
// submitted before it has finished; the destructor finishes queued jobs, then joins.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace hearth {

class StageWorker {
public:
    StageWorker();
    ~StageWorker();
    StageWorker(const StageWorker&) = delete;
    StageWorker& operator=(const StageWorker&) = delete;

    void submit(std::function<void()> job);
    void wait();

private:
    void loop();

    std::mutex mu_;
    std::condition_variable cv_, idle_;
    std::deque<std::function<void()>> jobs_;
    bool busy_ = false, stop_ = false;
    std::thread thread_;
};

}  // namespace hearth
