#pragma once
// One answered API request, for the access log (the GUI's server page reads these).
#include <cstdint>
#include <string>

namespace hearth::app::server {

struct AccessLogEntry {
    int64_t atMs = 0;        // when the request arrived (ms since the epoch, UTC)
    std::string keyName;     // the API key's name, or "anonymous"
    std::string client;      // remote address
    std::string method, path;
    std::string model;       // "" when the request named none / failed before
    int promptTokens = 0, completionTokens = 0;
    int status = 0;          // HTTP status; 499 when the client went away mid-stream
    double durationMs = 0;
};

}  // namespace hearth::app::server
