#pragma once
// Ollama's NDJSON stream for api/chat and api/generate: one {"done": false} line per text delta and
// a final {"done": true, ...timings} line; an engine failure mid-stream is an {"error": "..."}
// line. Ollama has no comment syntax, so keepAlive() is empty (the connection stays quiet).

#include <vector>

#include "server/StreamFormatter.h"

namespace hearth::app::server {

class OllamaStream final : public StreamFormatter {
public:
    // `promptTokens`: for generate's "context" (null for chat).
    OllamaStream(std::string model, bool chat, const std::vector<TokenId>* promptTokens);

    std::string onEvent(const ChoiceEvent& event, const ResponseAccumulator& soFar) override;
    std::string finish(const ResponseAccumulator& all) override;
    std::string keepAlive() const override { return {}; }
    const char* contentType() const override { return "application/x-ndjson"; }

private:
    std::string model_;
    bool chat_;
    std::vector<TokenId> prompt_;
    bool failed_ = false;
};

}  // namespace hearth::app::server
