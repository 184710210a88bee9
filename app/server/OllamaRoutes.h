#pragma once
// The Ollama-compatible routes: GET /api/version, /api/tags, /api/ps; POST /api/chat and
// /api/generate (NDJSON streams by default, "stream": false for one object). Errors are Ollama's
// {"error": "..."} with the same statuses as the OpenAI routes.

#include <memory>

#include "server/RequestScope.h"
#include "server/ServerContext.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace hearth::app::server {

class OllamaRoutes {
public:
    // The Ollama API version these routes follow (reported by /api/version).
    static constexpr const char* kApiVersion = "0.6.4";

    static void version(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                        const std::shared_ptr<RequestScope>& scope);
    static void tags(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                     const std::shared_ptr<RequestScope>& scope);
    static void ps(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                   const std::shared_ptr<RequestScope>& scope);
    static void chat(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                     const std::shared_ptr<RequestScope>& scope);
    static void generate(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                         const std::shared_ptr<RequestScope>& scope);

private:
    static void run(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                    const std::shared_ptr<RequestScope>& scope, bool chat);
};

}  // namespace hearth::app::server
