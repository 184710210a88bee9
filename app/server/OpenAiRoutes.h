#pragma once
// The OpenAI-compatible routes: GET /v1/models[/{id}], POST /v1/chat/completions and
// POST /v1/completions (also without the /v1 prefix). Each runs parse -> model -> admit ->
// prompt -> engine -> response; every failure is an OpenAI error body with its status.

#include <memory>

#include "server/RequestScope.h"
#include "server/ServerContext.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace hearth::app::server {

class OpenAiRoutes {
public:
    static void models(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                       const std::shared_ptr<RequestScope>& scope);
    static void model(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                      const std::shared_ptr<RequestScope>& scope);
    static void chatCompletions(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                                const std::shared_ptr<RequestScope>& scope);
    static void completions(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                            const std::shared_ptr<RequestScope>& scope);
};

}  // namespace hearth::app::server
