#pragma once
// One model the API serves: the backend, the id clients use, its chat template (parsed once) and
// the header facts /v1/models and /api/tags report.
//
// Invariants: immutable after construction and shared (shared_ptr) by every request that uses it,
// so a request keeps its model alive even if the server switches models meanwhile; chatFormatter()
// is always usable (the model's own template, or the plain-transcript fallback when the model has
// none or its template does not parse: templateWarning() then says why).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "hearth/chat_formatter.h"
#include "hearth/model_info.h"
#include "host/InferenceBackend.h"

namespace hearth::app::server {

class ServedModel {
public:
    // `id` empty: the GGUF file name without its extension.
    ServedModel(std::shared_ptr<InferenceBackend> backend, std::string id = {});

    const std::string& id() const { return id_; }
    // Whether a client's "model" names this one: the id, the id with an Ollama tag (":latest"),
    // the file name, the GGUF general.name, or the full path.
    bool matches(const std::string& requested) const;

    InferenceBackend& backend() const { return *backend_; }
    const std::shared_ptr<InferenceBackend>& sharedBackend() const { return backend_; }
    const Tokenizer& tokenizer() const { return *tokenizer_; }
    int contextLength() const { return backend_->contextLength(); }

    // The conversation-to-prompt path shared with the chat window and hearth-cli.
    const ChatFormatter& chatFormatter() const { return *formatter_; }
    bool usesFallbackTemplate() const { return formatter_->usesFallback(); }
    const std::string& templateWarning() const { return templateWarning_; }

    const ModelInfo& info() const { return info_; }
    int64_t createdUnix() const { return created_; }
    uint64_t fileSize() const { return info_.fileSize; }
    // A stable 64-hex-digit identifier of the file (path, size, mtime): Ollama's "digest".
    const std::string& digest() const { return digest_; }

private:
    std::shared_ptr<InferenceBackend> backend_;
    std::shared_ptr<const Tokenizer> tokenizer_;
    std::string id_;
    std::optional<ChatFormatter> formatter_;
    std::string templateWarning_;
    ModelInfo info_;
    int64_t created_ = 0;
    std::string digest_;
};

}  // namespace hearth::app::server
