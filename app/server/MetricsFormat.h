#pragma once
// GET /metrics: Prometheus text exposition (version 0.0.4) of the engine's stats and the server's
// counters: requests and tokens, what runs and waits, KV cache use, prefix-cache hit rate,
// throughput, latency quantiles, speculative decoding, device memory.

#include <string>

#include "hearth/engine.h"
#include "server/ServerContext.h"

namespace hearth::app::server {

class MetricsFormat {
public:
    // stats is null while no model is loaded (only the server's own series are written).
    static std::string prometheus(const EngineStats* stats, const ServerContext& ctx, const std::string& modelId);
};

}  // namespace hearth::app::server
