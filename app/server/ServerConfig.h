#pragma once
// How the API server listens and what it allows. Defaults are the safe ones: loopback only, no
// CORS, bodies up to 4 MiB.

#include <cstddef>
#include <string>
#include <vector>

#include "server/ApiKeyRecord.h"

namespace hearth::app::server {

struct ServerConfig {
    std::string host = "127.0.0.1";  // a non-loopback address needs at least one API key
    int port = 8080;                 // 0: any free port (see ApiServer::port())
    // Origins that may call the API from a browser ("*" for any). Empty: no CORS headers at all.
    std::vector<std::string> allowedOrigins;
    size_t maxBodyBytes = 4u << 20;  // larger bodies get 413
    // Generation requests admitted at once (running or queued in the engine); more get 503.
    int maxInFlight = 160;
    int httpThreads = 0;             // 0: maxInFlight + 32 (health, metrics and idle keep-alives)
    int keepAliveMs = 5000;          // SSE comment after this long without output (long prefills)
    int pollMs = 50;                 // how often a waiting stream checks that its client is still there
    bool requireKey = false;         // ask for a key on loopback too (always on for a LAN bind)
    ApiKeyLimits anonymousLimits;    // callers without a key (only possible when keys are not required)
    std::string modelId;             // the id clients use; empty: the GGUF file name
};

// 127.0.0.0/8, ::1 and "localhost".
bool isLoopbackHost(const std::string& host);

}  // namespace hearth::app::server
