#pragma once
// The per-request queue between the engine thread (producer, through ChoiceSink) and the HTTP
// worker thread that answers the request (consumer).
//
// Invariants: push() never blocks beyond a short mutex hold (the engine thread must not stall);
// take() returns events in the order they were pushed and never loses one; the channel is shared
// (shared_ptr) by the sinks and the job, so it outlives whichever side finishes first.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

#include "server/ChoiceEvent.h"

namespace hearth::app::server {

class GenerationChannel {
public:
    void push(ChoiceEvent event);
    // Waits up to `timeout` for at least one event; returns everything queued (maybe nothing).
    std::vector<ChoiceEvent> take(std::chrono::milliseconds timeout);

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<ChoiceEvent> events_;
};

}  // namespace hearth::app::server
