#include "ScriptedBackend.h"

#include <algorithm>
#include <chrono>

#include "UiTestEnv.h"

namespace hearth::test {

ScriptedBackend::ScriptedBackend(std::vector<std::string> pieces, int delayMs)
    : pieces_(std::move(pieces)), delayMs_(delayMs) {
    auto tok = Tokenizer::fromGguf(UiTestEnv::modelPath().toStdString());
    if (tok) tokenizer_ = *tok;
}

ScriptedBackend::~ScriptedBackend() {
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, flag] : cancels_) flag->store(true);
    }
    for (auto& t : threads_) t.join();
}

GenerationRequest ScriptedBackend::lastRequest() const {
    std::lock_guard lock(mutex_);
    return last_;
}

RequestId ScriptedBackend::submit(GenerationRequest request, std::shared_ptr<TokenSink> sink) {
    std::lock_guard lock(mutex_);
    const RequestId id = next_++;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancels_[id] = cancel;
    last_ = request;
    ++submitted_;
    ++running_;
    const int maxTokens = request.maxTokens;
    threads_.emplace_back([this, id, sink, cancel, maxTokens] {
        int produced = 0;
        FinishReason reason = FinishReason::Stop;
        for (const std::string& piece : pieces_) {
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs_));
            if (cancel->load()) {
                reason = FinishReason::Cancelled;
                break;
            }
            if (maxTokens > 0 && produced >= maxTokens) {
                reason = FinishReason::Length;
                break;
            }
            const TokenId token = 100 + produced;
            sink->onTokens(id, std::span<const TokenId>(&token, 1), piece, nullptr);
            ++produced;
            ++generated_;
        }
        Usage usage;
        usage.promptTokens = 7;
        usage.completionTokens = produced;
        usage.ttftMs = delayMs_;
        usage.totalMs = double(delayMs_) * (produced + 1);
        --running_;
        sink->onFinished(id, reason, usage);
    });
    return id;
}

void ScriptedBackend::cancel(RequestId id) {
    std::lock_guard lock(mutex_);
    auto it = cancels_.find(id);
    if (it != cancels_.end()) it->second->store(true);
}

EngineStats ScriptedBackend::stats() const {
    EngineStats s;
    s.running = running_.load();
    s.totalGeneratedTokens = generated_.load();
    s.decodeTokPerSec = running_.load() > 0 ? 1000.0 / std::max(1, delayMs_) : 0;
    return s;
}

app::BackendFactory scriptedFactory(std::vector<std::string> pieces, int delayMs, int steps, int stepMs,
                                    ScriptedBackend** created) {
    return [=](const EngineConfig& config,
               const app::LoadProgressFn& progress) -> Result<std::unique_ptr<app::InferenceBackend>> {
        if (config.modelPath.empty()) return makeError(ErrorCode::InvalidArgument, "no model");
        for (int i = 0; i <= steps; ++i) {
            if (progress && !progress(float(i) / float(steps))) return makeError(ErrorCode::Cancelled, "load cancelled");
            if (i < steps) std::this_thread::sleep_for(std::chrono::milliseconds(stepMs));
        }
        auto backend = std::make_unique<ScriptedBackend>(pieces, delayMs);
        if (created) *created = backend.get();
        return std::unique_ptr<app::InferenceBackend>(std::move(backend));
    };
}

}  // namespace hearth::test
