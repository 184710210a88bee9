#pragma once
// An InferenceBackend that needs no model: each request streams the same scripted pieces from
// its own thread (one piece every delayMs), honours cancel(), and ends with onFinished; the
// tokenizer is stories260K's. scriptedFactory() "loads" it in steps with progress reports, so
// tests can watch progress and cancel a load.
//
// Invariants: every submitted request gets exactly one onFinished; the destructor cancels and
// joins every request thread before returning (no sink call outlives the backend).

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/BackendFactory.h"
#include "host/InferenceBackend.h"

namespace hearth::test {

class ScriptedBackend final : public app::InferenceBackend {
public:
    ScriptedBackend(std::vector<std::string> pieces, int delayMs);
    ~ScriptedBackend() override;

    RequestId submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) override;
    void cancel(RequestId id) override;
    EngineStats stats() const override;
    std::shared_ptr<const Tokenizer> tokenizer() const override { return tokenizer_; }
    std::string modelPath() const override { return "scripted.gguf"; }
    std::string modelName() const override { return "scripted"; }
    int contextLength() const override { return 512; }
    std::string chatTemplate() const override { return {}; }

    int submitted() const { return submitted_.load(); }
    GenerationRequest lastRequest() const;

private:
    std::vector<std::string> pieces_;
    int delayMs_;
    std::shared_ptr<const Tokenizer> tokenizer_;
    mutable std::mutex mutex_;
    std::map<RequestId, std::shared_ptr<std::atomic<bool>>> cancels_;
    std::vector<std::thread> threads_;
    GenerationRequest last_;
    std::atomic<int> submitted_{0};
    std::atomic<int> running_{0};
    std::atomic<uint64_t> generated_{0};
    RequestId next_ = 1;
};

// Loads a ScriptedBackend after `steps` progress reports `stepMs` apart (cancellable at each).
// *created (when given) receives the backend pointer on success.
app::BackendFactory scriptedFactory(std::vector<std::string> pieces, int delayMs, int steps = 4, int stepMs = 20,
                                    ScriptedBackend** created = nullptr);

}  // namespace hearth::test
