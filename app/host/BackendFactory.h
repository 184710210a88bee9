#pragma once
// How the engine host creates a backend from an EngineConfig. The default factory loads a real
// hearth::Engine; tests substitute their own. A factory runs on the host's loader thread and must
// honour `progress` returning false (cancel) by returning ErrorCode::Cancelled.

#include <functional>
#include <memory>

#include "hearth/engine.h"
#include "hearth/result.h"
#include "host/InferenceBackend.h"

namespace hearth::app {

// progress(fraction in [0,1]) returns false when the user cancelled the load.
using LoadProgressFn = std::function<bool(float)>;
using BackendFactory =
    std::function<Result<std::unique_ptr<InferenceBackend>>(const EngineConfig&, const LoadProgressFn&)>;

// hearth::Engine::create behind the InferenceBackend interface. In a build whose engine has no
// runtime yet it returns ErrorCode::Unavailable with a message that says so.
BackendFactory engineBackendFactory();
// True when this build links the real engine runtime (engineBackendFactory can load models).
bool engineRuntimeAvailable();

}  // namespace hearth::app
