#pragma once
// Typed, range-checked reads of a JSON request object's fields, for the request parsers. The first
// problem is kept as an ApiError (400, naming the field in `param`); later reads after an error
// return nothing, so a parser can read everything and check ok() once.
//
// Invariants: a field that is absent or JSON null reads as "not given" (std::nullopt) and is never
// an error; a present field of the wrong JSON type is an error ("invalid_type"), one outside its
// range too ("invalid_value"); booleans are not numbers and integers must be whole.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "server/ApiError.h"

namespace hearth::app::server {

class FieldReader {
public:
    // `prefix` is prepended to field names in error messages and params ("options.").
    explicit FieldReader(const nlohmann::json& object, std::string prefix = {});

    bool has(const std::string& name) const;  // present and not null
    const nlohmann::json* raw(const std::string& name) const;  // present and not null, else null

    std::optional<std::string> string(const std::string& name);
    std::optional<bool> boolean(const std::string& name);
    std::optional<double> number(const std::string& name, double min, double max);
    std::optional<int64_t> integer(const std::string& name, int64_t min, int64_t max);
    // A string or an array of strings (OpenAI's "stop"); at most maxItems, each non-empty.
    std::optional<std::vector<std::string>> stringList(const std::string& name, size_t maxItems);

    void fail(ApiError error);
    void failType(const std::string& name, const char* expected);
    bool ok() const { return !error_; }
    const ApiError& error() const { return *error_; }
    std::string param(const std::string& name) const { return prefix_ + name; }

private:
    const nlohmann::json& object_;
    std::string prefix_;
    std::optional<ApiError> error_;
};

}  // namespace hearth::app::server
