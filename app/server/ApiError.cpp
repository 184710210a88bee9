#include "server/ApiError.h"

namespace hearth::app::server {

ApiError ApiError::badRequest(std::string message, std::string param, std::string code) {
    return {400, std::move(message), "invalid_request_error", std::move(param), std::move(code)};
}

ApiError ApiError::unauthorized(std::string message) {
    return {401, std::move(message), "authentication_error", {}, "invalid_api_key"};
}

ApiError ApiError::notFound(std::string message, std::string code) {
    return {404, std::move(message), "not_found_error", {}, std::move(code)};
}

ApiError ApiError::modelNotFound(const std::string& model) {
    return {404, "The model '" + model + "' does not exist or is not loaded (see GET /v1/models)",
            "not_found_error", "model", "model_not_found"};
}

ApiError ApiError::tooLarge(size_t limitBytes) {
    return {413, "Request body too large (the limit is " + std::to_string(limitBytes) + " bytes)",
            "invalid_request_error", {}, "request_too_large"};
}

ApiError ApiError::rateLimited(std::string message, std::string code) {
    return {429, std::move(message), "rate_limit_error", {}, std::move(code)};
}

ApiError ApiError::unavailable(std::string message, std::string code) {
    return {503, std::move(message), "server_error", {}, std::move(code)};
}

ApiError ApiError::internal(std::string message) {
    return {500, std::move(message), "server_error", {}, "internal_error"};
}

ApiError ApiError::fromEngine(const Error& error) {
    switch (error.code) {
    case ErrorCode::InvalidArgument:
    case ErrorCode::TemplateError:
    case ErrorCode::TokenizerError: return badRequest(error.message, {}, "invalid_value");
    case ErrorCode::ContextOverflow: return badRequest(error.message, "messages", "context_length_exceeded");
    case ErrorCode::OutOfMemory:
    case ErrorCode::Unavailable: return unavailable(error.message, "engine_unavailable");
    case ErrorCode::Cancelled: return unavailable(error.message, "cancelled");
    default: return internal(error.toString());
    }
}

nlohmann::json ApiError::openAiBody() const {
    nlohmann::json e;
    e["message"] = message;
    e["type"] = type;
    e["param"] = param.empty() ? nlohmann::json(nullptr) : nlohmann::json(param);
    e["code"] = code.empty() ? nlohmann::json(nullptr) : nlohmann::json(code);
    return {{"error", e}};
}

}  // namespace hearth::app::server
