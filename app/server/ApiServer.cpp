#include "server/ApiServer.h"

#include <httplib.h>

#include <cstdio>

#include "server/MetricsFormat.h"
#include "server/OllamaRoutes.h"
#include "server/OpenAiRoutes.h"

namespace hearth::app::server {
namespace {

using Route = void (*)(ServerContext&, const httplib::Request&, httplib::Response&, const std::shared_ptr<RequestScope>&);

enum class Access { Open, Key };

bool isOllamaPath(const std::string& path) { return path.rfind("/api/", 0) == 0; }

}  // namespace

ApiServer::ApiServer(ServerConfig config, std::shared_ptr<KeyAuthenticator> auth, ServerContext::LogSink log)
    : ctx_(std::move(config), std::move(auth), std::move(log)), http_(std::make_unique<httplib::Server>()) {}

ApiServer::~ApiServer() { stop(); }

void ApiServer::setModel(std::shared_ptr<InferenceBackend> backend) {
    if (!backend) {
        ctx_.setLoadFailed("no model is loaded");
        return;
    }
    ctx_.setModel(std::make_shared<const ServedModel>(std::move(backend), ctx_.config().modelId));
}

Status ApiServer::start() {
    const ServerConfig& cfg = ctx_.config();
    if (running()) return makeError(ErrorCode::InvalidArgument, "the API server is already running");
    if (!isLoopbackHost(cfg.host) && ctx_.keyCount() == 0)
        return makeError(ErrorCode::InvalidArgument,
                         "binding to " + cfg.host +
                             " makes the API reachable from the network, so it needs at least one API key: create one "
                             "with `hearth-cli keys create NAME` (or pass --api-key-file FILE)");
    const int threads = cfg.httpThreads > 0 ? cfg.httpThreads : cfg.maxInFlight + 32;
    http_->new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
    http_->set_payload_max_length(cfg.maxBodyBytes);
    http_->set_keep_alive_max_count(1000);
    http_->set_keep_alive_timeout(5);
    http_->set_read_timeout(30);
    http_->set_write_timeout(30);
    http_->set_tcp_nodelay(true);
    routes();
    if (cfg.port == 0) {
        port_ = http_->bind_to_any_port(cfg.host);
        if (port_ <= 0) return makeError(ErrorCode::IoError, "cannot bind to " + cfg.host);
    } else {
        if (!http_->bind_to_port(cfg.host, cfg.port))
            return makeError(ErrorCode::IoError, "cannot bind to " + cfg.host + ":" + std::to_string(cfg.port) +
                                                     " (in use, or not an address of this machine)");
        port_ = cfg.port;
    }
    listener_ = std::thread([this] { http_->listen_after_bind(); });
    return Status::success();
}

void ApiServer::stop() {
    ctx_.setStopping();
    if (http_) http_->stop();
    if (listener_.joinable()) listener_.join();
}

void ApiServer::routes() {
    ServerContext& ctx = ctx_;
    // Every route runs inside this wrapper: CORS, the key check, the access-log scope, and a last
    // catch so no exception ever reaches httplib (or ends the process).
    auto wrap = [&ctx](Route route, Access access, bool quiet = false) {
        return [&ctx, route, access, quiet](const httplib::Request& req, httplib::Response& res) {
            const bool ollama = isOllamaPath(req.path);
            auto scope = std::make_shared<RequestScope>(ctx, req.method, req.path, req.remote_addr, ollama);
            scope->quiet = quiet;
            try {
                ctx.applyCors(req, res);
                if (access == Access::Key) {
                    if (auto e = ctx.authenticate(req, *scope)) {
                        ctx.replyError(res, *e, ollama);
                        scope->entry.status = e->status;
                        return;
                    }
                }
                route(ctx, req, res, scope);
            } catch (const std::exception& e) {
                const ApiError err = ApiError::internal(std::string("internal error: ") + e.what());
                ctx.replyError(res, err, ollama);
                scope->entry.status = err.status;
            } catch (...) {
                const ApiError err = ApiError::internal("internal error");
                ctx.replyError(res, err, ollama);
                scope->entry.status = err.status;
            }
        };
    };

    auto& h = *http_;
    h.Get("/health", wrap(
                         [](ServerContext& c, const httplib::Request&, httplib::Response& res,
                            const std::shared_ptr<RequestScope>& scope) {
                             int status = 200;
                             const auto body = c.health(status);
                             c.reply(res, body, status);
                             scope->entry.status = status;
                         },
                         Access::Open, true));
    h.Get("/metrics", wrap(
                          [](ServerContext& c, const httplib::Request&, httplib::Response& res,
                             const std::shared_ptr<RequestScope>& scope) {
                              auto model = c.model();
                              std::optional<EngineStats> stats;
                              if (model) stats = model->backend().stats();
                              res.set_content(MetricsFormat::prometheus(stats ? &*stats : nullptr, c, model ? model->id() : ""),
                                              "text/plain; version=0.0.4");
                              scope->entry.status = 200;
                          },
                          Access::Key, true));
    for (const std::string prefix : {"/v1", ""}) {
        h.Get(prefix + "/models", wrap(&OpenAiRoutes::models, Access::Key));
        h.Get(prefix + "/models/(.+)", wrap(&OpenAiRoutes::model, Access::Key));
        h.Post(prefix + "/chat/completions", wrap(&OpenAiRoutes::chatCompletions, Access::Key));
        h.Post(prefix + "/completions", wrap(&OpenAiRoutes::completions, Access::Key));
    }
    h.Get("/api/version", wrap(&OllamaRoutes::version, Access::Open));
    h.Get("/api/tags", wrap(&OllamaRoutes::tags, Access::Key));
    h.Get("/api/ps", wrap(&OllamaRoutes::ps, Access::Key));
    h.Post("/api/chat", wrap(&OllamaRoutes::chat, Access::Key));
    h.Post("/api/generate", wrap(&OllamaRoutes::generate, Access::Key));
    h.Get("/", [&ctx](const httplib::Request& req, httplib::Response& res) {
        ctx.applyCors(req, res);
        res.set_content("Hearth is running", "text/plain");
    });
    h.Options(R"(/.*)", [&ctx](const httplib::Request& req, httplib::Response& res) {
        ctx.applyCors(req, res);
        if (res.has_header("Access-Control-Allow-Origin")) {
            res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
            res.set_header("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Api-Key, OpenAI-Organization, "
                                                           "OpenAI-Project, X-Stainless-*");
            res.set_header("Access-Control-Max-Age", "600");
        }
        res.status = 204;
    });

    // Answers httplib produces itself (unknown route, body over the limit, unparsable request) get
    // the API's error bodies too. Handler replies already have a body and are left alone.
    h.set_error_handler(httplib::Server::HandlerWithResponse([&ctx](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty() || res.is_chunked_content_provider_) return httplib::Server::HandlerResponse::Unhandled;
        const bool ollama = isOllamaPath(req.path);
        ApiError e;
        switch (res.status) {
        case 404: e = ApiError::notFound("No route " + req.method + " " + req.path, "unknown_route"); break;
        case 413: e = ApiError::tooLarge(ctx.config().maxBodyBytes); break;
        case 400: e = ApiError::badRequest("Malformed HTTP request", {}, "bad_request"); break;
        default:
            e = res.status >= 500 ? ApiError::internal("HTTP error " + std::to_string(res.status))
                                  : ApiError{res.status, "HTTP error " + std::to_string(res.status), "invalid_request_error", {}, {}};
        }
        ctx.applyCors(req, res);
        ctx.replyError(res, e, ollama);
        RequestScope scope(ctx, req.method, req.path, req.remote_addr, ollama);
        scope.entry.status = e.status;
        return httplib::Server::HandlerResponse::Handled;
    }));
    h.set_exception_handler([&ctx](const httplib::Request& req, httplib::Response& res, std::exception_ptr) {
        ctx.replyError(res, ApiError::internal("internal error"), isOllamaPath(req.path));
    });
}

}  // namespace hearth::app::server
