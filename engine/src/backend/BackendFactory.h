#pragma once
// Chooses and builds the backend for an engine configuration.
//
// Empty config.placement.devices: the CPU backend (all layers, config.threads threads).
// Otherwise: libhearth-cuda is loaded with dlopen (see pipeline/CudaLibrary.h for where it is
// looked for), the layers are placed by pipeline/PlacementPlan (GPU stages by split ratios or free
// memory, the last cpuLayers on the CPU), and the result is a PipelineBackend over those stages.
// A missing library, driver or device is ErrorCode::Unavailable with a message saying which.
// The returned backend has no KV pool yet: call allocateKv() (kvBlockBytes() and memoryStats()
// tell how much fits).

#include <memory>

#include "backend/Backend.h"
#include "gguf/GgufFile.h"
#include "hearth/engine.h"
#include "model/ModelConfig.h"

namespace hearth {

Result<std::unique_ptr<Backend>> createBackend(const EngineConfig& config, std::shared_ptr<const GgufFile> file,
                                               const ModelConfig& modelConfig);

}  // namespace hearth
