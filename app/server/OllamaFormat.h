#pragma once
// Ollama response bodies (api/chat, api/generate, api/tags, api/ps): Ollama's field names,
// RFC 3339 timestamps with nanoseconds, durations in nanoseconds.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/ResponseAccumulator.h"
#include "server/ServedModel.h"

namespace hearth::app::server {

class OllamaFormat {
public:
    static std::string now();  // "2025-01-02T03:04:05.123456789Z"
    static const char* doneReason(FinishReason r);  // "stop" / "length"

    // One streamed line's body: {"model","created_at", "message"|"response", "done": false}.
    static nlohmann::json partial(const std::string& model, bool chat, const std::string& text);
    // The last line (or the whole non-streamed reply): text, done: true, done_reason and timings;
    // generate replies carry "context" (prompt + output tokens) for a follow-up request.
    static nlohmann::json final(const std::string& model, bool chat, const std::string& text, const ResponseAccumulator& acc,
                                const std::vector<TokenId>* context);

    static nlohmann::json tagEntry(const ServedModel& model);
    static nlohmann::json psEntry(const ServedModel& model);
    static std::string line(const nlohmann::json& payload);  // JSON + "\n"
};

}  // namespace hearth::app::server
