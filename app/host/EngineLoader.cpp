#include "host/EngineLoader.h"

#include <algorithm>
#include <exception>
#include <string>

namespace hearth::app {

void EngineLoader::load(const LoadTicket& ticket, const EngineConfig& config) {
    if (ticket.cancelled()) {
        emit failed(ticket.number, tr("Loading was cancelled."), true);
        return;
    }
    double lastSent = -1;
    const LoadProgressFn progressFn = [&](float fraction) {
        // The engine may report per tensor; a queued signal per 0.5 % is plenty for a progress bar.
        const double f = std::clamp(double(fraction), 0.0, 1.0);
        if (f - lastSent >= 0.005 || (f >= 1.0 && lastSent < 1.0)) {
            lastSent = f;
            emit progress(ticket.number, f);
        }
        return !ticket.cancelled();
    };
    Result<std::unique_ptr<InferenceBackend>> backend = makeError(ErrorCode::Unavailable, "no backend factory");
    // Errors are values at the engine boundary; an exception escaping anyway (out of memory while
    // allocating a cache) must fail this load, not take the app down.
    try {
        if (factory_) backend = factory_(config, progressFn);
    } catch (const std::exception& e) {
        backend = makeError(ErrorCode::Internal, std::string("the engine failed while loading: ") + e.what());
    }
    if (!backend) {
        const bool cancelled = backend.error().code == ErrorCode::Cancelled || ticket.cancelled();
        emit failed(ticket.number, QString::fromStdString(backend.error().toString()), cancelled);
        return;
    }
    if (ticket.cancelled()) {  // finished just as the user pressed cancel: honour the cancel
        backend->reset();
        emit failed(ticket.number, tr("Loading was cancelled."), true);
        return;
    }
    emit loaded(ticket.number, SharedBackend(std::move(*backend)));
}

void EngineLoader::release(const SharedBackend& backend) {
    SharedBackend local = backend;  // the queued copy in the event is the other reference
    local.reset();
    emit released();
}

}  // namespace hearth::app
