#pragma once
// Everything one API request holds while it runs: who called, what it used, the limiter slot and
// the in-flight admission. Shared (shared_ptr) between the route handler and, for streams, the
// stream session, so it ends when the last of them does; its destructor writes the access-log
// entry and gives back the slot with the tokens used.
//
// Invariants: logged exactly once (in the destructor); `status` is what the client got (499 when
// it went away mid-stream); inFlight is held iff admitted.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "server/AccessLogEntry.h"
#include "server/KeyAuthenticator.h"
#include "server/UsageLimiter.h"

namespace hearth::app::server {

class ServerContext;

struct RequestScope {
    RequestScope(ServerContext& context, std::string method, std::string path, std::string client, bool ollama);
    ~RequestScope();
    RequestScope(const RequestScope&) = delete;
    RequestScope& operator=(const RequestScope&) = delete;

    // The engine's fairness key: the API key's name, else the request's "user", else the address.
    std::string fairnessKey(const std::string& user) const;

    ServerContext& context;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    AccessLogEntry entry;
    bool ollama = false;
    bool streaming = false;
    bool quiet = false;  // counted for /metrics but not written to the access log (health checks)
    std::optional<CallerIdentity> caller;  // set when a valid key was presented
    std::unique_ptr<UsageLimiter::Slot> slot;
    bool inFlight = false;
};

}  // namespace hearth::app::server
