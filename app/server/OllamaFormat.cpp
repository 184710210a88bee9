#include "server/OllamaFormat.h"

#include <QDateTime>
#include <chrono>
#include <cstdio>

#include "server/OpenAiFormat.h"

namespace hearth::app::server {
namespace {

using nlohmann::json;

std::string rfc3339(int64_t unixNanos) {
    const auto secs = static_cast<qint64>(unixNanos / 1000000000);
    const auto nanos = static_cast<long>(unixNanos % 1000000000);
    const QString base = QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString("yyyy-MM-ddTHH:mm:ss");
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%09ldZ", nanos);
    return base.toStdString() + frac;
}

int64_t ns(double ms) { return static_cast<int64_t>(ms * 1e6); }

std::string parameterSize(uint64_t n) {
    char buf[32];
    if (n >= 1000000000ull) std::snprintf(buf, sizeof buf, "%.1fB", static_cast<double>(n) / 1e9);
    else if (n >= 1000000ull) std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(n) / 1e6);
    else std::snprintf(buf, sizeof buf, "%.1fK", static_cast<double>(n) / 1e3);
    return buf;
}

json details(const ServedModel& m) {
    const auto& info = m.info();
    return {{"parent_model", ""},
            {"format", "gguf"},
            {"family", info.architecture},
            {"families", json::array({info.architecture})},
            {"parameter_size", parameterSize(info.parameterCount)},
            {"quantization_level", info.fileType}};
}

std::string tagged(const std::string& id) { return id.find(':') == std::string::npos ? id + ":latest" : id; }

}  // namespace

std::string OllamaFormat::now() {
    const auto t = std::chrono::system_clock::now().time_since_epoch();
    return rfc3339(std::chrono::duration_cast<std::chrono::nanoseconds>(t).count());
}

const char* OllamaFormat::doneReason(FinishReason r) { return r == FinishReason::Length ? "length" : "stop"; }

std::string OllamaFormat::line(const json& payload) { return OpenAiFormat::dump(payload) + "\n"; }

json OllamaFormat::partial(const std::string& model, bool chat, const std::string& text) {
    json j = {{"model", model}, {"created_at", now()}};
    if (chat) j["message"] = {{"role", "assistant"}, {"content", text}};
    else j["response"] = text;
    j["done"] = false;
    return j;
}

json OllamaFormat::final(const std::string& model, bool chat, const std::string& text, const ResponseAccumulator& acc,
                         const std::vector<TokenId>* context) {
    json j = partial(model, chat, text);
    FinishReason reason = acc.choices() > 0 ? acc.choice(0).reason : FinishReason::Stop;
    j["done"] = true;
    j["done_reason"] = doneReason(reason);
    if (context) j["context"] = *context;
    const double total = acc.totalMs(), ttft = acc.ttftMs();
    j["total_duration"] = ns(total);
    j["load_duration"] = 0;
    j["prompt_eval_count"] = acc.promptTokens();
    j["prompt_eval_duration"] = ns(ttft);
    j["eval_count"] = acc.completionTokens();
    j["eval_duration"] = ns(std::max(0.0, total - ttft));
    return j;
}

json OllamaFormat::tagEntry(const ServedModel& m) {
    return {{"name", tagged(m.id())},
            {"model", tagged(m.id())},
            {"modified_at", rfc3339(m.createdUnix() * 1000000000ll)},
            {"size", m.fileSize()},
            {"digest", m.digest()},
            {"details", details(m)}};
}

json OllamaFormat::psEntry(const ServedModel& m) {
    json j = tagEntry(m);
    j.erase("modified_at");
    j["expires_at"] = "9999-12-31T23:59:59Z";  // loaded until the owner unloads it
    uint64_t vram = 0;
    for (const auto& d : m.backend().stats().devices)
        if (d.device >= 0) vram += d.weights + d.kvPool;
    j["size_vram"] = vram;
    return j;
}

}  // namespace hearth::app::server
