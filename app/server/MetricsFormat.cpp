#include "server/MetricsFormat.h"

#include <cstdio>

namespace hearth::app::server {
namespace {

class Writer {
public:
    explicit Writer(std::string labels) : labels_(std::move(labels)) {}

    void metric(const char* name, const char* type, const char* help, double value, const std::string& extra = {}) {
        header(name, type, help);
        sample(name, value, extra);
    }
    void header(const char* name, const char* type, const char* help) {
        out_ += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    }
    void sample(const char* name, double value, const std::string& extra = {}) {
        std::string labels = labels_;
        if (!extra.empty()) labels += (labels.empty() ? "" : ",") + extra;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", value);
        out_ += std::string(name) + (labels.empty() ? "" : "{" + labels + "}") + " " + buf + "\n";
    }
    std::string take() { return std::move(out_); }

private:
    std::string labels_;
    std::string out_;
};

std::string escapeLabel(const std::string& v) {
    std::string out;
    for (char c : v) {
        if (c == '\\' || c == '"') out += '\\';
        if (c == '\n') { out += "\\n"; continue; }
        out += c;
    }
    return out;
}

}  // namespace

std::string MetricsFormat::prometheus(const EngineStats* s, const ServerContext& ctx, const std::string& modelId) {
    Writer w(modelId.empty() ? std::string() : "model=\"" + escapeLabel(modelId) + "\"");
    w.header("hearth_http_responses_total", "counter", "API responses by HTTP status");
    for (const auto& [status, count] : ctx.responsesByStatus())
        w.sample("hearth_http_responses_total", static_cast<double>(count), "status=\"" + std::to_string(status) + "\"");
    w.metric("hearth_http_requests_in_flight", "gauge", "Generation requests admitted and not finished", ctx.inFlight());
    w.metric("hearth_http_streams_active", "gauge", "Streamed responses in progress", ctx.activeStreams());
    w.metric("hearth_http_prompt_tokens_total", "counter", "Prompt tokens of answered requests",
             static_cast<double>(ctx.promptTokensServed()));
    w.metric("hearth_http_completion_tokens_total", "counter", "Generated tokens of answered requests",
             static_cast<double>(ctx.completionTokensServed()));
    w.metric("hearth_model_loaded", "gauge", "1 when a model is ready", s ? 1 : 0);
    if (!s) return w.take();

    w.metric("hearth_requests_total", "counter", "Requests the engine accepted", static_cast<double>(s->totalRequests));
    w.metric("hearth_prompt_tokens_total", "counter", "Prompt tokens the engine received", static_cast<double>(s->totalPromptTokens));
    w.metric("hearth_generated_tokens_total", "counter", "Tokens the engine generated", static_cast<double>(s->totalGeneratedTokens));
    w.metric("hearth_requests_running", "gauge", "Sequences running", s->running);
    w.metric("hearth_requests_waiting", "gauge", "Requests queued in the engine", s->waiting);
    w.metric("hearth_requests_swapped", "gauge", "Preempted sequences swapped to RAM", s->swapped);
    w.metric("hearth_kv_blocks_total", "gauge", "KV cache blocks on the devices", static_cast<double>(s->kvBlocksTotal));
    w.metric("hearth_kv_blocks_used", "gauge", "KV cache blocks in use", static_cast<double>(s->kvBlocksUsed));
    w.metric("hearth_kv_blocks_cached", "gauge", "Free KV blocks that still hold a cached prefix", static_cast<double>(s->kvBlocksCached));
    w.metric("hearth_kv_usage_ratio", "gauge", "Share of KV blocks in use",
             s->kvBlocksTotal ? static_cast<double>(s->kvBlocksUsed) / static_cast<double>(s->kvBlocksTotal) : 0.0);
    w.metric("hearth_ram_blocks_used", "gauge", "KV blocks held in the RAM tier", static_cast<double>(s->ramBlocksUsed));
    w.metric("hearth_prefix_query_tokens_total", "counter", "Prompt tokens looked up in the prefix cache",
             static_cast<double>(s->prefixQueryTokens));
    w.header("hearth_prefix_hit_tokens_total", "counter", "Prompt tokens served from the prefix cache, by tier");
    w.sample("hearth_prefix_hit_tokens_total", static_cast<double>(s->prefixHitTokensDevice), "tier=\"device\"");
    w.sample("hearth_prefix_hit_tokens_total", static_cast<double>(s->prefixHitTokensRam), "tier=\"ram\"");
    w.sample("hearth_prefix_hit_tokens_total", static_cast<double>(s->prefixHitTokensDisk), "tier=\"disk\"");
    const double hits = static_cast<double>(s->prefixHitTokensDevice + s->prefixHitTokensRam + s->prefixHitTokensDisk);
    w.metric("hearth_prefix_hit_ratio", "gauge", "Share of looked-up prompt tokens found in the cache",
             s->prefixQueryTokens ? hits / static_cast<double>(s->prefixQueryTokens) : 0.0);
    w.metric("hearth_prefill_tokens_per_second", "gauge", "Prompt throughput over the last seconds", s->prefillTokPerSec);
    w.metric("hearth_decode_tokens_per_second", "gauge", "Generation throughput over the last seconds", s->decodeTokPerSec);
    w.header("hearth_time_to_first_token_seconds", "summary", "Time from submit to the first token");
    w.sample("hearth_time_to_first_token_seconds", s->ttftP50Ms / 1000.0, "quantile=\"0.5\"");
    w.sample("hearth_time_to_first_token_seconds", s->ttftP95Ms / 1000.0, "quantile=\"0.95\"");
    w.header("hearth_inter_token_latency_seconds", "summary", "Time between generated tokens");
    w.sample("hearth_inter_token_latency_seconds", s->itlP50Ms / 1000.0, "quantile=\"0.5\"");
    w.sample("hearth_inter_token_latency_seconds", s->itlP95Ms / 1000.0, "quantile=\"0.95\"");
    w.metric("hearth_preemptions_total", "counter", "Sequences preempted for memory", static_cast<double>(s->preemptions));
    w.metric("hearth_engine_steps_total", "counter", "Engine steps run", static_cast<double>(s->steps));
    w.metric("hearth_draft_tokens_proposed_total", "counter", "Speculative tokens proposed", static_cast<double>(s->draftProposed));
    w.metric("hearth_draft_tokens_accepted_total", "counter", "Speculative tokens accepted", static_cast<double>(s->draftAccepted));
    w.header("hearth_device_memory_bytes", "gauge", "Device memory by use");
    for (const auto& d : s->devices) {
        const std::string dev = "device=\"" + escapeLabel(d.name) + "\",index=\"" + std::to_string(d.device) + "\"";
        w.sample("hearth_device_memory_bytes", static_cast<double>(d.total), dev + ",kind=\"total\"");
        w.sample("hearth_device_memory_bytes", static_cast<double>(d.free), dev + ",kind=\"free\"");
        w.sample("hearth_device_memory_bytes", static_cast<double>(d.weights), dev + ",kind=\"weights\"");
        w.sample("hearth_device_memory_bytes", static_cast<double>(d.kvPool), dev + ",kind=\"kv\"");
    }
    return w.take();
}

}  // namespace hearth::app::server
