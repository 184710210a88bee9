#include "host/HostMetaTypes.h"

#include "host/InferenceBackend.h"

namespace hearth::app {

void registerHostMetaTypes() {
    static const bool once = [] {
        qRegisterMetaType<hearth::FinishReason>();
        qRegisterMetaType<hearth::Usage>();
        qRegisterMetaType<hearth::EngineConfig>();
        qRegisterMetaType<SharedBackend>();
        return true;
    }();
    (void)once;
}

}  // namespace hearth::app
