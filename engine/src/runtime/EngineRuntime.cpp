#include "runtime/EngineRuntime.h"

#include <cstdio>

namespace hearth {

EngineRuntime::EngineRuntime(std::unique_ptr<EngineCore> core)
    : core_(std::move(core)), tokenizer_(core_->tokenizer()), contextLength_(core_->contextLength()) {
    stats_ = core_->stats();
    // A sink that saw its finish must find the request counted in stats().
    core_->setBeforeFinishes([this] { publishStats(true); });
    thread_ = std::thread([this] { loop(); });
}

EngineRuntime::~EngineRuntime() {
    {
        std::lock_guard<std::mutex> lock(inboxMutex_);
        stop_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

RequestId EngineRuntime::submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) {
    const RequestId id = nextId_.fetch_add(1);
    // Tokenize here, on the caller's thread: a long prompt must not stall every running sequence.
    if (request.promptTokens.empty() && tokenizer_)
        request.promptTokens =
            tokenizer_->encode(request.promptText, TokenizeOptions{request.addSpecial, request.parseSpecial});
    Command c;
    c.id = id;
    c.request = std::move(request);
    c.sink = std::move(sink);
    c.submitted = EngineCore::Clock::now();
    {
        std::lock_guard<std::mutex> lock(inboxMutex_);
        inbox_.push_back(std::move(c));
    }
    wake_.notify_one();
    return id;
}

void EngineRuntime::cancel(RequestId id) {
    Command c;
    c.cancel = true;
    c.id = id;
    {
        std::lock_guard<std::mutex> lock(inboxMutex_);
        inbox_.push_back(std::move(c));
    }
    wake_.notify_one();
}

EngineStats EngineRuntime::stats() const {
    std::lock_guard<std::mutex> lock(statsMutex_);
    return stats_;
}

void EngineRuntime::publishStats(bool force) {
    // Counters are cheap; device memory figures (the backend may read /proc) a few times a second.
    const auto now = EngineCore::Clock::now();
    if (!force && now - lastPublish_ < std::chrono::milliseconds(100)) return;
    lastPublish_ = now;
    const bool devices = now - lastDevices_ >= std::chrono::milliseconds(500);
    if (devices) lastDevices_ = now;
    EngineStats s = core_->stats(devices);
    std::lock_guard<std::mutex> lock(statsMutex_);
    if (!devices) s.devices = std::move(stats_.devices);
    stats_ = std::move(s);
}

void EngineRuntime::loop() {
    std::vector<Command> batch;
    for (;;) {
        bool stopping;
        {
            std::unique_lock<std::mutex> lock(inboxMutex_);
            if (inbox_.empty() && !stop_ && !core_->hasWork()) {
                lock.unlock();
                publishStats(true);  // idle: make the final numbers visible
                lock.lock();
                wake_.wait(lock, [&] { return stop_ || !inbox_.empty(); });
            }
            batch.swap(inbox_);
            stopping = stop_;
        }
        for (Command& c : batch) {
            if (c.cancel) core_->cancel(c.id);
            else core_->add(c.id, c.request, std::move(c.sink), c.submitted);
        }
        batch.clear();
        if (stopping) break;
        if (Status s = core_->step(); !s.ok())
            std::fprintf(stderr, "hearth engine: step failed: %s\n", s.error().toString().c_str());
        publishStats(false);
    }
    core_->shutdown();
    publishStats(true);
}

}  // namespace hearth
