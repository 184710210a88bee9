#pragma once
// An HTTP error as the API returns it: OpenAI's {"error":{"message","type","param","code"}} on the
// OpenAI routes, Ollama's {"error":"message"} on /api/*.
//
// Invariants: status is a 4xx/5xx code; message is never empty; type is one of OpenAI's
// ("invalid_request_error", "authentication_error", "permission_error", "not_found_error",
// "rate_limit_error", "server_error"); param and code are empty when they do not apply (they are
// then sent as null).

#include <string>

#include <nlohmann/json.hpp>

#include "hearth/result.h"

namespace hearth::app::server {

struct ApiError {
    int status = 500;
    std::string message;
    std::string type = "server_error";
    std::string param;
    std::string code;

    static ApiError badRequest(std::string message, std::string param = {}, std::string code = "invalid_value");
    static ApiError unauthorized(std::string message);
    static ApiError notFound(std::string message, std::string code = "not_found");
    static ApiError modelNotFound(const std::string& model);
    static ApiError tooLarge(size_t limitBytes);
    static ApiError rateLimited(std::string message, std::string code);
    static ApiError unavailable(std::string message, std::string code);
    static ApiError internal(std::string message);
    // An engine error: bad input is 400, missing resources 503, the rest 500.
    static ApiError fromEngine(const Error& error);

    nlohmann::json openAiBody() const;
    nlohmann::json ollamaBody() const { return {{"error", message}}; }
};

}  // namespace hearth::app::server
