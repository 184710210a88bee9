#pragma once
// The state the API routes share: configuration, the served model (or its loading state), the key
// check, the usage limiter, counters for /metrics and the access-log sink; plus the helpers every
// route uses (authenticate, admit, reply). Thread-safe: HTTP workers call it concurrently.
//
// Invariants: model() is null exactly while no model is ready; inFlight() counts admitted
// generation requests and never exceeds config().maxInFlight; counters only grow.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "server/ApiError.h"
#include "server/KeyAuthenticator.h"
#include "server/RequestScope.h"
#include "server/ServedModel.h"
#include "server/ServerConfig.h"
#include "server/UsageLimiter.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace hearth::app::server {

class ServerContext {
public:
    using LogSink = std::function<void(const AccessLogEntry&)>;

    ServerContext(ServerConfig config, std::shared_ptr<KeyAuthenticator> auth, LogSink log);

    const ServerConfig& config() const { return config_; }
    bool authRequired() const;
    size_t keyCount() const { return auth_->keyCount(); }

    // Model state
    void setModel(std::shared_ptr<const ServedModel> model);
    void setLoading(float progress);
    void setLoadFailed(std::string message);
    std::shared_ptr<const ServedModel> model() const;
    // The model a request names (empty: the one loaded); 503 while loading, 404 when unknown.
    std::shared_ptr<const ServedModel> resolve(const std::string& requested, ApiError& error, int& retryAfterSec) const;
    nlohmann::json health(int& status) const;

    // Per-request helpers
    // 401 when a key is required and missing/wrong; a valid key (even when not required) names the caller.
    std::optional<ApiError> authenticate(const httplib::Request& req, RequestScope& scope) const;
    // Takes an in-flight place and a limiter slot: 503 when the server is full, 429 over a key's limits.
    std::optional<ApiError> admit(RequestScope& scope, int& retryAfterSec);
    void releaseInFlight() { inFlight_.fetch_sub(1); }
    void applyCors(const httplib::Request& req, httplib::Response& res) const;
    void reply(httplib::Response& res, const nlohmann::json& body, int status = 200) const;
    void replyError(httplib::Response& res, const ApiError& error, bool ollama, int retryAfterSec = 0) const;

    void record(const RequestScope& scope);
    bool stopping() const { return stopping_.load(); }
    void setStopping() { stopping_.store(true); }

    // Counters for /metrics
    int inFlight() const { return inFlight_.load(); }
    int activeStreams() const { return activeStreams_.load(); }
    void streamStarted() { activeStreams_.fetch_add(1); }
    void streamEnded() { activeStreams_.fetch_sub(1); }
    std::map<int, uint64_t> responsesByStatus() const;
    uint64_t promptTokensServed() const { return promptTokens_.load(); }
    uint64_t completionTokensServed() const { return completionTokens_.load(); }

private:
    ServerConfig config_;
    std::shared_ptr<KeyAuthenticator> auth_;
    LogSink log_;
    std::shared_ptr<UsageLimiter> limiter_ = std::make_shared<UsageLimiter>();

    mutable std::mutex modelMutex_;
    std::shared_ptr<const ServedModel> model_;
    float loadProgress_ = 0;
    std::string loadError_;
    bool loading_ = true;

    std::atomic<int> inFlight_{0}, activeStreams_{0};
    std::atomic<bool> stopping_{false};
    std::atomic<uint64_t> promptTokens_{0}, completionTokens_{0};
    mutable std::mutex countersMutex_;
    std::map<int, uint64_t> byStatus_;
};

}  // namespace hearth::app::server
