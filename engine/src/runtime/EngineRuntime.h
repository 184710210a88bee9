#pragma once
// The engine thread: an inbox of submits and cancels in front of an EngineCore, and the loop that
// drains it and steps the core while there is work (sleeping on a condition variable otherwise).
//
// Invariants: only the engine thread touches the core after start (submit() only uses its
// immutable tokenizer, to tokenize prompt text on the caller's thread); submit()/cancel() only
// lock the inbox mutex for a push (never wait for a step); stats() reads a snapshot the engine thread
// publishes under its own mutex (always before sinks get finishes, so a finished request is
// already counted); the destructor stops the thread, which first ends every request
// (each sink gets its finish) and persists the KV cache, on the engine thread.

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/EngineCore.h"

namespace hearth {

class EngineRuntime {
public:
    explicit EngineRuntime(std::unique_ptr<EngineCore> core);
    ~EngineRuntime();
    EngineRuntime(const EngineRuntime&) = delete;
    EngineRuntime& operator=(const EngineRuntime&) = delete;

    RequestId submit(GenerationRequest request, std::shared_ptr<TokenSink> sink);
    void cancel(RequestId id);
    EngineStats stats() const;
    int32_t contextLength() const { return contextLength_; }

private:
    struct Command {
        bool cancel = false;
        RequestId id = 0;
        GenerationRequest request;
        std::shared_ptr<TokenSink> sink;
        EngineCore::Clock::time_point submitted;
    };
    void loop();
    void publishStats(bool force);

    std::unique_ptr<EngineCore> core_;
    const std::shared_ptr<const Tokenizer> tokenizer_;
    const int32_t contextLength_;
    std::atomic<RequestId> nextId_{1};

    std::mutex inboxMutex_;
    std::condition_variable wake_;
    std::vector<Command> inbox_;
    bool stop_ = false;

    mutable std::mutex statsMutex_;
    EngineStats stats_;
    EngineCore::Clock::time_point lastPublish_{}, lastDevices_{};

    std::thread thread_;  // last: starts after everything above exists
};

}  // namespace hearth
