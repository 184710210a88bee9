#include "backend/BackendFactory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cpu/CpuBackend.h"
#include "model/ModelWeights.h"
#include "pipeline/CpuStage.h"
#include "pipeline/CudaLibrary.h"
#include "pipeline/PipelineBackend.h"
#include "pipeline/PlacementPlan.h"

namespace hearth {
namespace {

bool envFlag(const char* name, bool fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    return !(std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0);
}

// The CUDA library checks tensor types itself (naming the tensor it cannot run), so the host-side
// views accept every type the GGUF reader knows.
bool anyType(TensorType) { return true; }

}  // namespace

Result<std::unique_ptr<Backend>> createBackend(const EngineConfig& config, std::shared_ptr<const GgufFile> file,
                                               const ModelConfig& mc) {
    const PlacementConfig& pc = config.placement;
    if (pc.devices.empty()) {
        if (pc.cpuLayers != 0 && pc.cpuLayers != static_cast<int>(mc.nLayers))
            return makeError(ErrorCode::InvalidArgument, "--cpu-layers needs --devices (without devices every layer runs on the CPU)");
        auto cpu = cpu::CpuBackend::create(std::move(file), mc, config.threads);
        if (!cpu) return cpu.error();
        return std::unique_ptr<Backend>(std::move(*cpu));
    }

    auto lib = CudaLibrary::load();
    if (!lib) return lib.error();
    const HearthCudaApi& api = (*lib)->api();
    char err[1024] = {0};
    const int count = api.deviceCount(err, sizeof(err));
    if (count < 0) return makeError(ErrorCode::Unavailable, std::string("no usable CUDA driver: ") + err);
    if (count == 0) return makeError(ErrorCode::Unavailable, "no CUDA device is present");
    std::vector<uint64_t> freeBytes;
    for (int d : pc.devices) {
        if (d < 0 || d >= count)
            return makeError(ErrorCode::Unavailable, "CUDA device " + std::to_string(d) + " does not exist (" +
                                                         std::to_string(count) + " present)");
        HearthCudaDeviceInfo info{};
        if (const int rc = api.deviceInfo(d, &info, err, sizeof(err)); rc != 0)
            return makeError(static_cast<ErrorCode>(rc), err);
        freeBytes.push_back(info.freeBytes);
    }
    auto plan = PlacementPlan::make(pc, static_cast<int>(mc.nLayers), freeBytes);
    if (!plan) return plan.error();

    auto weights = ModelWeights::load(file, mc, &anyType);
    if (!weights) return weights.error();
    const bool graphs = envFlag("HEARTH_CUDA_GRAPHS", true);

    std::vector<std::unique_ptr<PipelineStage>> stages;
    for (const StagePlan& sp : plan->stages()) {
        if (sp.device < 0) {
            auto cpu = cpu::CpuBackend::create(file, mc, config.threads, sp.firstLayer, sp.lastLayer);
            if (!cpu) return cpu.error();
            stages.push_back(std::make_unique<CpuStage>(std::move(*cpu), sp.embedding, sp.head));
            continue;
        }
        HearthCudaStageArgs a{};
        a.abiVersion = kHearthCudaAbi;
        a.weights = &*weights;
        a.device = sp.device;
        a.logicalIndex = sp.logicalIndex;
        a.logicalCount = sp.logicalCount;
        a.firstLayer = sp.firstLayer;
        a.lastLayer = sp.lastLayer;
        a.embedding = sp.embedding ? 1 : 0;
        a.head = sp.head ? 1 : 0;
        a.maxBatchTokens = std::max(config.maxBatchTokens, 64);
        a.useGraphs = graphs ? 1 : 0;
        a.batchInvariant = config.batchInvariant ? 1 : 0;
        a.maxContext = config.contextLength > 0 ? config.contextLength
                                                : static_cast<int>(std::clamp<uint32_t>(mc.nCtxTrain, 2048, 1u << 20));
        PipelineStage* raw = nullptr;
        if (const int rc = api.createStage(&a, &raw, err, sizeof(err)); rc != 0 || !raw)
            return makeError(rc ? static_cast<ErrorCode>(rc) : ErrorCode::Internal, err);
        stages.emplace_back(raw);
    }
    const int micro = static_cast<int>(stages.size());
    return std::unique_ptr<Backend>(std::make_unique<PipelineBackend>(std::move(stages), *lib, mc.nVocab, mc.nEmbd, micro));
}

}  // namespace hearth
