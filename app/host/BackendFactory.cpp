#include "host/BackendFactory.h"

#if HEARTH_HAVE_ENGINE
#include "host/EngineBackend.h"
#endif

namespace hearth::app {

bool engineRuntimeAvailable() { return HEARTH_HAVE_ENGINE != 0; }

BackendFactory engineBackendFactory() {
    return [](const EngineConfig& config, const LoadProgressFn& progress) -> Result<std::unique_ptr<InferenceBackend>> {
#if HEARTH_HAVE_ENGINE
        // Engine::create takes a C callback; the std::function travels through the user pointer.
        auto trampoline = [](float fraction, void* user) -> bool {
            const auto* fn = static_cast<const LoadProgressFn*>(user);
            return !*fn || (*fn)(fraction);
        };
        auto engine = Engine::create(config, trampoline, const_cast<LoadProgressFn*>(&progress));
        if (!engine) return engine.error();
        return std::unique_ptr<InferenceBackend>(std::make_unique<EngineBackend>(std::move(*engine)));
#else
        (void)config;
        (void)progress;
        return makeError(ErrorCode::Unavailable,
                         "this build of Hearth has no engine runtime yet (hearth::Engine::create is not linked)");
#endif
    };
}

}  // namespace hearth::app
