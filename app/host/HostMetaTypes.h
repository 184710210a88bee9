#pragma once
// Engine value types that cross threads inside queued Qt signals (engine thread -> GUI thread,
// loader thread -> GUI thread). registerHostMetaTypes() must run before the first such signal; the
// EngineHost constructor calls it.

#include <QMetaType>
#include <memory>

#include "hearth/engine.h"

namespace hearth::app {
class InferenceBackend;
using SharedBackend = std::shared_ptr<InferenceBackend>;
void registerHostMetaTypes();
}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::FinishReason)
Q_DECLARE_METATYPE(hearth::Usage)
Q_DECLARE_METATYPE(hearth::EngineConfig)
Q_DECLARE_METATYPE(hearth::app::SharedBackend)
