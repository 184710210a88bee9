// The public Engine (hearth/engine.h): loads the model and its tokenizer, builds the backend and
// the EngineCore, and hands both to an EngineRuntime (the engine thread).
#include <algorithm>

#include "backend/BackendFactory.h"
#include "gguf/GgufFile.h"
#include "hearth/engine.h"
#include "hearth/model_info.h"
#include "runtime/EngineRuntime.h"
#include "model/ModelConfig.h"
#include "runtime/ModelFingerprint.h"
#include "spec/DomainIndex.h"
#include "tokenizer/GgufTokenizerLoader.h"

namespace hearth {
namespace {

// What config.spec's method needs: the domain index (its tokenizer must be this model's) or the
// draft model on a backend of its own (same tokenizer, same vocabulary, same placement).
Result<SpecResources> loadSpecResources(const EngineConfig& config, const Tokenizer& tok) {
    SpecResources res;
    const SpecConfig& sc = config.spec;
    if (sc.method == SpecMethod::Index) {
        if (sc.path.empty()) return makeError(ErrorCode::InvalidArgument, "speculative decoding with an index needs the index file");
        auto ix = DomainIndex::open(sc.path, tok.fingerprint());
        if (!ix) return makeError(ix.error().code, "speculative decoding index: " + ix.error().message);
        res.index = std::move(*ix);
    } else if (sc.method == SpecMethod::Draft) {
        if (sc.path.empty()) return makeError(ErrorCode::InvalidArgument, "speculative decoding with a draft model needs its file");
        auto info = inspectModel(sc.path);
        if (!info) return makeError(info.error().code, "draft model: " + info.error().message);
        if (!info->supported)
            return makeError(ErrorCode::UnsupportedArch, "draft model '" + sc.path + "': architecture '" +
                                                             info->architecture + "' is not supported");
        auto file = GgufFile::open(sc.path);
        HEARTH_TRY(file);
        auto mc = ModelConfig::fromGguf(**file);
        HEARTH_TRY(mc);
        auto dtok = GgufTokenizerLoader::load(**file);
        if (!dtok) return makeError(dtok.error().code, "draft model '" + sc.path + "': " + dtok.error().message);
        if ((*dtok)->fingerprint() != tok.fingerprint())
            return makeError(ErrorCode::InvalidArgument, "draft model '" + sc.path +
                                                             "' has a different tokenizer than the model; a draft model must share "
                                                             "the model's vocabulary");
        auto backend = createBackend(config, *file, *mc);
        if (!backend) return makeError(backend.error().code, "draft model: " + backend.error().message);
        res.draftBackend = std::move(*backend);
        res.draftContext = info->contextLength ? static_cast<int32_t>(std::min<uint32_t>(info->contextLength, 1u << 20)) : 0;
    }
    return res;
}

}  // namespace

const char* finishReasonName(FinishReason r) {
    switch (r) {
        case FinishReason::Stop: return "stop";
        case FinishReason::Length: return "length";
        case FinishReason::Cancelled: return "cancelled";
        case FinishReason::Error: return "error";
    }
    return "unknown";
}

struct Engine::Impl {
    std::string modelPath, modelName, chatTemplate;
    std::shared_ptr<const Tokenizer> tokenizer;
    std::unique_ptr<EngineRuntime> runtime;
};

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

Result<std::unique_ptr<Engine>> Engine::create(const EngineConfig& config, LoadProgress progress, void* progressUser) {
    auto report = [&](float p) { return !progress || progress(p, progressUser); };
    const auto cancelled = makeError(ErrorCode::Cancelled, "model load cancelled");
    if (!report(0.0f)) return cancelled;
    if (config.maxSeqs < 1 || config.maxBatchTokens < 1 || config.prefillChunk < 1)
        return makeError(ErrorCode::InvalidArgument, "maxSeqs, maxBatchTokens and prefillChunk must be positive");
    if (config.contextLength < 0) return makeError(ErrorCode::InvalidArgument, "negative context length");

    auto info = inspectModel(config.modelPath);
    HEARTH_TRY(info);
    if (!info->supported)
        return makeError(ErrorCode::UnsupportedArch, "'" + config.modelPath + "': architecture '" + info->architecture +
                                                         "' is not supported");
    auto file = GgufFile::open(config.modelPath);
    HEARTH_TRY(file);
    auto modelConfig = ModelConfig::fromGguf(**file);
    HEARTH_TRY(modelConfig);
    auto tok = GgufTokenizerLoader::load(**file);
    HEARTH_TRY(tok);
    if (!report(0.2f)) return cancelled;
    // CPU, or CUDA stages (plus CPU offload) per config.placement.
    auto backend = createBackend(config, *file, *modelConfig);
    HEARTH_TRY(backend);
    if (!report(0.8f)) return cancelled;

    const uint64_t blockBytes = (*backend)->kvBlockBytes(config.kvType);
    if (blockBytes == 0) return kvDTypeRefused("the " + (*backend)->name() + " backend", config.kvType);
    auto fp = ModelFingerprint::compute(config.modelPath, (*backend)->name(), config.kvType, blockBytes);
    HEARTH_TRY(fp);
    EngineCoreOptions opts;
    opts.fingerprint = *fp;
    opts.modelContext = info->contextLength ? static_cast<int32_t>(std::min<uint32_t>(info->contextLength, 1u << 20)) : 2048;
    auto spec = loadSpecResources(config, **tok);
    HEARTH_TRY(spec);
    if (!report(0.9f)) return cancelled;
    auto core = EngineCore::create(std::move(*backend), *tok, config, opts, std::move(*spec));
    HEARTH_TRY(core);

    auto impl = std::make_unique<Impl>();
    impl->modelPath = config.modelPath;
    impl->modelName = info->name;
    impl->chatTemplate = config.chatTemplateOverride.empty() ? info->chatTemplate : config.chatTemplateOverride;
    impl->tokenizer = *tok;
    impl->runtime = std::make_unique<EngineRuntime>(std::move(*core));
    if (!report(1.0f)) return cancelled;
    return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

RequestId Engine::submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) {
    return impl_->runtime->submit(std::move(request), std::move(sink));
}
void Engine::cancel(RequestId id) { impl_->runtime->cancel(id); }
EngineStats Engine::stats() const { return impl_->runtime->stats(); }
const Tokenizer& Engine::tokenizer() const { return *impl_->tokenizer; }
std::shared_ptr<const Tokenizer> Engine::tokenizerPtr() const { return impl_->tokenizer; }
const std::string& Engine::modelPath() const { return impl_->modelPath; }
std::string Engine::modelName() const {
    if (!impl_->modelName.empty()) return impl_->modelName;
    const auto slash = impl_->modelPath.find_last_of('/');
    return slash == std::string::npos ? impl_->modelPath : impl_->modelPath.substr(slash + 1);
}
int Engine::contextLength() const { return impl_->runtime->contextLength(); }
const std::string& Engine::chatTemplate() const { return impl_->chatTemplate; }

}  // namespace hearth
