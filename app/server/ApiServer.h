#pragma once
// The LAN API server: OpenAI- and Ollama-compatible HTTP over cpp-httplib, in front of one served
// model. Used by `hearth-cli serve` and the desktop app's server switch.
//
// Routes: GET /health (no key), GET /metrics, GET /v1/models[/{id}], POST /v1/chat/completions,
// POST /v1/completions, GET /api/version, /api/tags, /api/ps, POST /api/chat, /api/generate,
// OPTIONS * (CORS preflight). docs/api.md describes them.
//
// Threads: start() binds on the calling thread and listens on a thread of its own; requests run on
// a pool of config.httpThreads workers; a worker blocks only on its own request's channel (never
// the engine). Handlers never throw out: an unexpected exception becomes a 500 body.
// Invariants: a non-loopback bind without any API key is refused by start(); after stop() no
// request is running and nothing of this server touches the backend.

#include <memory>
#include <thread>

#include "hearth/result.h"
#include "server/ServerContext.h"

namespace httplib {
class Server;
}

namespace hearth::app::server {

class ApiServer {
public:
    ApiServer(ServerConfig config, std::shared_ptr<KeyAuthenticator> auth, ServerContext::LogSink log = {});
    ~ApiServer();
    ApiServer(const ApiServer&) = delete;
    ApiServer& operator=(const ApiServer&) = delete;

    Status start();
    void stop();
    bool running() const { return listener_.joinable(); }
    int port() const { return port_; }

    // The model to serve (null: none); requests arriving meanwhile get 503 "loading".
    void setModel(std::shared_ptr<InferenceBackend> backend);
    void setLoading(float progress) { ctx_.setLoading(progress); }
    void setLoadFailed(const std::string& message) { ctx_.setLoadFailed(message); }
    ServerContext& context() { return ctx_; }

private:
    void routes();

    ServerContext ctx_;
    std::unique_ptr<httplib::Server> http_;
    std::thread listener_;
    int port_ = 0;
};

}  // namespace hearth::app::server
