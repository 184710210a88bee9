#include "server/ServerContext.h"

#include <httplib.h>

#include <algorithm>

namespace hearth::app::server {

ServerContext::ServerContext(ServerConfig config, std::shared_ptr<KeyAuthenticator> auth, LogSink log)
    : config_(std::move(config)), auth_(auth ? std::move(auth) : std::make_shared<KeyAuthenticator>()),
      log_(std::move(log)) {}

bool ServerContext::authRequired() const { return config_.requireKey || !isLoopbackHost(config_.host); }

void ServerContext::setModel(std::shared_ptr<const ServedModel> model) {
    std::lock_guard<std::mutex> lock(modelMutex_);
    model_ = std::move(model);
    loading_ = false;
    loadError_.clear();
}

void ServerContext::setLoading(float progress) {
    std::lock_guard<std::mutex> lock(modelMutex_);
    model_.reset();
    loading_ = true;
    loadProgress_ = progress;
    loadError_.clear();
}

void ServerContext::setLoadFailed(std::string message) {
    std::lock_guard<std::mutex> lock(modelMutex_);
    model_.reset();
    loading_ = false;
    loadError_ = std::move(message);
}

std::shared_ptr<const ServedModel> ServerContext::model() const {
    std::lock_guard<std::mutex> lock(modelMutex_);
    return model_;
}

std::shared_ptr<const ServedModel> ServerContext::resolve(const std::string& requested, ApiError& error,
                                                          int& retryAfterSec) const {
    std::lock_guard<std::mutex> lock(modelMutex_);
    if (!model_) {
        if (loading_) {
            error = ApiError::unavailable("The model is still loading; try again shortly", "model_loading");
            retryAfterSec = 2;
        } else {
            error = ApiError::unavailable(loadError_.empty() ? "No model is loaded" : "The model failed to load: " + loadError_,
                                          "model_not_loaded");
        }
        return nullptr;
    }
    if (!requested.empty() && !model_->matches(requested)) {
        error = ApiError::modelNotFound(requested);
        return nullptr;
    }
    return model_;
}

nlohmann::json ServerContext::health(int& status) const {
    std::lock_guard<std::mutex> lock(modelMutex_);
    if (model_) {
        status = 200;
        return {{"status", "ready"}, {"model", model_->id()}};
    }
    status = 503;
    if (loading_) return {{"status", "loading"}, {"progress", loadProgress_}};
    return {{"status", "error"}, {"message", loadError_.empty() ? "no model is loaded" : loadError_}};
}

std::optional<ApiError> ServerContext::authenticate(const httplib::Request& req, RequestScope& scope) const {
    std::string key;
    const std::string auth = req.get_header_value("Authorization");
    if (auth.size() > 7 && (auth.compare(0, 7, "Bearer ") == 0 || auth.compare(0, 7, "bearer ") == 0)) key = auth.substr(7);
    if (key.empty()) key = req.get_header_value("x-api-key");
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    if (!key.empty()) {
        if (auto who = auth_->authenticate(key)) {
            scope.caller = who;
            scope.entry.keyName = who->name;
            return std::nullopt;
        }
        // Without required keys a wrong key is no worse than none (SDKs always send something).
        if (authRequired()) return ApiError::unauthorized("Invalid API key");
        return std::nullopt;
    }
    if (authRequired())
        return ApiError::unauthorized("Missing API key: send 'Authorization: Bearer <key>' (create one with `hearth-cli keys create NAME`)");
    return std::nullopt;
}

std::optional<ApiError> ServerContext::admit(RequestScope& scope, int& retryAfterSec) {
    if (stopping_) return ApiError::unavailable("The server is shutting down", "server_stopping");
    if (inFlight_.fetch_add(1) >= config_.maxInFlight) {
        inFlight_.fetch_sub(1);
        retryAfterSec = 1;
        return ApiError::unavailable("The server is at capacity (" + std::to_string(config_.maxInFlight) +
                                         " requests in flight); try again shortly",
                                     "server_busy");
    }
    scope.inFlight = true;
    const ApiKeyLimits limits = scope.caller ? scope.caller->limits : config_.anonymousLimits;
    const std::string who = scope.caller ? scope.caller->name : "anonymous";
    ApiError error;
    scope.slot = limiter_->acquire(who, limits, error, retryAfterSec);
    if (!scope.slot) return error;
    return std::nullopt;
}

void ServerContext::applyCors(const httplib::Request& req, httplib::Response& res) const {
    if (config_.allowedOrigins.empty() || !req.has_header("Origin")) return;
    const std::string origin = req.get_header_value("Origin");
    const auto& allowed = config_.allowedOrigins;
    const bool any = std::find(allowed.begin(), allowed.end(), "*") != allowed.end();
    if (!any && std::find(allowed.begin(), allowed.end(), origin) == allowed.end()) return;
    res.set_header("Access-Control-Allow-Origin", any ? "*" : origin);
    if (!any) res.set_header("Vary", "Origin");
}

void ServerContext::reply(httplib::Response& res, const nlohmann::json& body, int status) const {
    res.status = status;
    res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

void ServerContext::replyError(httplib::Response& res, const ApiError& error, bool ollama, int retryAfterSec) const {
    if (retryAfterSec > 0) res.set_header("Retry-After", std::to_string(retryAfterSec));
    reply(res, ollama ? error.ollamaBody() : error.openAiBody(), error.status);
}

void ServerContext::record(const RequestScope& scope) {
    promptTokens_.fetch_add(static_cast<uint64_t>(std::max(0, scope.entry.promptTokens)));
    completionTokens_.fetch_add(static_cast<uint64_t>(std::max(0, scope.entry.completionTokens)));
    {
        std::lock_guard<std::mutex> lock(countersMutex_);
        ++byStatus_[scope.entry.status];
    }
    if (log_ && !scope.quiet) log_(scope.entry);
}

std::map<int, uint64_t> ServerContext::responsesByStatus() const {
    std::lock_guard<std::mutex> lock(countersMutex_);
    return byStatus_;
}

}  // namespace hearth::app::server
