#pragma once
// JSON in and out of template values. In: the render context (JSON objects keep their key order
// with nlohmann::ordered_json; integers stay ints, other numbers become floats). Out: Python's
// json.dumps(x, ensure_ascii, indent, separators, sort_keys), which is what transformers' tojson
// filter calls: ", " and ": " separators by default ("," and ": " with an indent), floats as
// repr(), NaN/Infinity spelled as Python does, and a TypeError for values JSON cannot hold.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "chat/Value.h"

namespace hearth::chat::json {

Value fromJson(const nlohmann::ordered_json& j);

struct DumpOptions {
    bool ensureAscii = false;
    std::optional<std::string> indent;  // nullopt: one line; "" or spaces: pretty-printed
    std::string itemSeparator = ", ";
    std::string keySeparator = ": ";
    bool sortKeys = false;
};
std::string dump(const Value& v, const DumpOptions& options);

}  // namespace hearth::chat::json
