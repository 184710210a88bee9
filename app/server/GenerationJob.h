#pragma once
// The engine requests behind one HTTP request: one GenerationRequest per choice (prompts x n),
// submitted together, their events read back in order, cancelled together.
//
// Invariants: choice i is requests[i]; done() is true once every choice has had its Finished or
// Failed event; the destructor cancels every choice that is not done, so a request that ends for
// any reason (client gone, error, server stopping) never leaves work in the engine. Used by one
// HTTP worker thread at a time.

#include <chrono>
#include <memory>
#include <vector>

#include "server/GenerationChannel.h"
#include "server/ServedModel.h"

namespace hearth::app::server {

class GenerationJob {
public:
    GenerationJob(std::shared_ptr<const ServedModel> model, std::vector<GenerationRequest> requests);
    ~GenerationJob();
    GenerationJob(const GenerationJob&) = delete;
    GenerationJob& operator=(const GenerationJob&) = delete;

    void start();
    // Events that arrived, waiting up to `timeout` for the first one.
    std::vector<ChoiceEvent> next(std::chrono::milliseconds timeout);
    bool done() const { return remaining_ == 0; }
    void cancel();

    int choices() const { return static_cast<int>(requests_.size()); }
    const GenerationRequest& request(int choice) const { return requests_[static_cast<size_t>(choice)]; }
    const ServedModel& model() const { return *model_; }

private:
    std::shared_ptr<const ServedModel> model_;
    std::vector<GenerationRequest> requests_;
    std::shared_ptr<GenerationChannel> channel_;
    std::vector<RequestId> ids_;
    std::vector<bool> ended_;
    bool cancelled_ = false;
    int remaining_ = 0;
    bool started_ = false;
};

}  // namespace hearth::app::server
