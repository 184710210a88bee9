#include "pipeline/StageWorker.h"

namespace hearth {

StageWorker::StageWorker() : thread_([this] { loop(); }) {}

StageWorker::~StageWorker() {
    {
        std::lock_guard<std::mutex> l(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void StageWorker::submit(std::function<void()> job) {
    {
        std::lock_guard<std::mutex> l(mu_);
        jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
}

void StageWorker::wait() {
    std::unique_lock<std::mutex> l(mu_);
    idle_.wait(l, [&] { return jobs_.empty() && !busy_; });
}

void StageWorker::loop() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock<std::mutex> l(mu_);
            cv_.wait(l, [&] { return stop_ || !jobs_.empty(); });
            if (jobs_.empty()) return;  // stop_ with nothing left
            job = std::move(jobs_.front());
            jobs_.pop_front();
            busy_ = true;
        }
        job();
        {
            std::lock_guard<std::mutex> l(mu_);
            busy_ = false;
        }
        idle_.notify_all();
    }
}

}  // namespace hearth
