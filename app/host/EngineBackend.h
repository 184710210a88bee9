#pragma once
// InferenceBackend over a real hearth::Engine (owned). Compiled only when the engine runtime is
// part of the build (HEARTH_HAVE_ENGINE).
// Invariant: engine_ is never null.

#include <memory>

#include "host/InferenceBackend.h"

namespace hearth::app {

class EngineBackend final : public InferenceBackend {
public:
    explicit EngineBackend(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}

    RequestId submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) override {
        return engine_->submit(std::move(request), std::move(sink));
    }
    void cancel(RequestId id) override { engine_->cancel(id); }
    EngineStats stats() const override { return engine_->stats(); }
    std::shared_ptr<const Tokenizer> tokenizer() const override { return engine_->tokenizerPtr(); }
    std::string modelPath() const override { return engine_->modelPath(); }
    std::string modelName() const override { return engine_->modelName(); }
    int contextLength() const override { return engine_->contextLength(); }
    std::string chatTemplate() const override { return engine_->chatTemplate(); }
    Engine* engine() override { return engine_.get(); }

private:
    std::unique_ptr<Engine> engine_;
};

}  // namespace hearth::app
