#include "server/GenerationJob.h"

#include "server/ChoiceSink.h"

namespace hearth::app::server {

GenerationJob::GenerationJob(std::shared_ptr<const ServedModel> model, std::vector<GenerationRequest> requests)
    : model_(std::move(model)), requests_(std::move(requests)), channel_(std::make_shared<GenerationChannel>()),
      ended_(requests_.size(), false), remaining_(static_cast<int>(requests_.size())) {}

GenerationJob::~GenerationJob() { cancel(); }

void GenerationJob::start() {
    if (started_) return;
    started_ = true;
    for (size_t i = 0; i < requests_.size(); ++i)
        ids_.push_back(model_->backend().submit(requests_[i], std::make_shared<ChoiceSink>(channel_, static_cast<int>(i))));
}

std::vector<ChoiceEvent> GenerationJob::next(std::chrono::milliseconds timeout) {
    if (done()) return {};
    auto events = channel_->take(timeout);
    for (const auto& e : events) {
        if (e.kind == ChoiceEvent::Kind::Tokens) continue;
        const auto i = static_cast<size_t>(e.choice);
        if (i < ended_.size() && !ended_[i]) {
            ended_[i] = true;
            --remaining_;
        }
    }
    return events;
}

void GenerationJob::cancel() {
    if (cancelled_) return;  // once: the engine ends each choice with one Cancelled event
    cancelled_ = true;
    for (size_t i = 0; i < ids_.size(); ++i)
        if (!ended_[i]) model_->backend().cancel(ids_[i]);
}

}  // namespace hearth::app::server
