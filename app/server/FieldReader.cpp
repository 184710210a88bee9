#include "server/FieldReader.h"

#include <cmath>

namespace hearth::app::server {

FieldReader::FieldReader(const nlohmann::json& object, std::string prefix) : object_(object), prefix_(std::move(prefix)) {}

const nlohmann::json* FieldReader::raw(const std::string& name) const {
    if (!object_.is_object()) return nullptr;
    auto it = object_.find(name);
    if (it == object_.end() || it->is_null()) return nullptr;
    return &*it;
}

bool FieldReader::has(const std::string& name) const { return raw(name) != nullptr; }

void FieldReader::fail(ApiError error) {
    if (!error_) error_ = std::move(error);
}

void FieldReader::failType(const std::string& name, const char* expected) {
    fail(ApiError::badRequest("'" + param(name) + "' must be " + expected, param(name), "invalid_type"));
}

std::optional<std::string> FieldReader::string(const std::string& name) {
    const auto* v = raw(name);
    if (!v || error_) return std::nullopt;
    if (!v->is_string()) {
        failType(name, "a string");
        return std::nullopt;
    }
    return v->get<std::string>();
}

std::optional<bool> FieldReader::boolean(const std::string& name) {
    const auto* v = raw(name);
    if (!v || error_) return std::nullopt;
    if (!v->is_boolean()) {
        failType(name, "a boolean");
        return std::nullopt;
    }
    return v->get<bool>();
}

std::optional<double> FieldReader::number(const std::string& name, double min, double max) {
    const auto* v = raw(name);
    if (!v || error_) return std::nullopt;
    if (!v->is_number()) {
        failType(name, "a number");
        return std::nullopt;
    }
    const double x = v->get<double>();
    if (!std::isfinite(x) || x < min || x > max) {
        fail(ApiError::badRequest("'" + param(name) + "' must be between " + nlohmann::json(min).dump() + " and " +
                                      nlohmann::json(max).dump() + ", got " + v->dump(),
                                  param(name)));
        return std::nullopt;
    }
    return x;
}

std::optional<int64_t> FieldReader::integer(const std::string& name, int64_t min, int64_t max) {
    const auto* v = raw(name);
    if (!v || error_) return std::nullopt;
    int64_t x = 0;
    if (v->is_number_integer()) {
        x = v->get<int64_t>();
    } else if (v->is_number_unsigned()) {
        const auto u = v->get<uint64_t>();
        x = u > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(u);
    } else if (v->is_number_float() && std::isfinite(v->get<double>()) && std::floor(v->get<double>()) == v->get<double>() &&
               std::fabs(v->get<double>()) < 9.0e18) {
        x = static_cast<int64_t>(v->get<double>());  // 5.0 is a whole number
    } else {
        failType(name, "an integer");
        return std::nullopt;
    }
    if (x < min || x > max) {
        fail(ApiError::badRequest("'" + param(name) + "' must be between " + std::to_string(min) + " and " +
                                      std::to_string(max) + ", got " + v->dump(),
                                  param(name)));
        return std::nullopt;
    }
    return x;
}

std::optional<std::vector<std::string>> FieldReader::stringList(const std::string& name, size_t maxItems) {
    const auto* v = raw(name);
    if (!v || error_) return std::nullopt;
    std::vector<std::string> out;
    if (v->is_string()) {
        out.push_back(v->get<std::string>());
    } else if (v->is_array()) {
        for (const auto& item : *v) {
            if (!item.is_string()) {
                failType(name, "a string or an array of strings");
                return std::nullopt;
            }
            out.push_back(item.get<std::string>());
        }
    } else {
        failType(name, "a string or an array of strings");
        return std::nullopt;
    }
    if (out.size() > maxItems) {
        fail(ApiError::badRequest("'" + param(name) + "' has more than " + std::to_string(maxItems) + " entries", param(name)));
        return std::nullopt;
    }
    for (const auto& s : out) {
        if (s.empty()) {
            fail(ApiError::badRequest("'" + param(name) + "' must not contain empty strings", param(name)));
            return std::nullopt;
        }
    }
    return out;
}

}  // namespace hearth::app::server
