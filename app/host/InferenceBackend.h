#pragma once
// What the engine host needs from a loaded model: submit/cancel/stats and the model's identity.
// The real implementation wraps hearth::Engine (EngineBackend); tests can put a scripted backend
// behind the same interface to drive the chat view without a model.
//
// Threading: submit(), cancel() and stats() are thread-safe and never block on generation (the
// Engine's contract). Sinks are called on the backend's own thread and must not block.
// Invariant: a backend's identity (path, name, context, template, tokenizer) never changes after
// it is created; tokenizer() is never null.

#include <memory>
#include <string>

#include "hearth/engine.h"

namespace hearth::app {

class InferenceBackend {
public:
    virtual ~InferenceBackend() = default;

    virtual RequestId submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) = 0;
    virtual void cancel(RequestId id) = 0;
    virtual EngineStats stats() const = 0;

    virtual std::shared_ptr<const Tokenizer> tokenizer() const = 0;
    virtual std::string modelPath() const = 0;
    virtual std::string modelName() const = 0;
    virtual int contextLength() const = 0;
    virtual std::string chatTemplate() const = 0;  // empty: the model has none

    // The real engine, for services that talk to it directly (the API server); null for fakes.
    virtual Engine* engine() { return nullptr; }
};

}  // namespace hearth::app
