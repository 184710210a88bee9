#pragma once
// A small, independent JSON Schema validator for the subset the constraint supports (type, enum,
// const, nullable, properties, required, additionalProperties, items, minItems, maxItems, minLength,
// maxLength, anyOf, oneOf, allOf, local $ref). The tests validate generated documents with it, so
// a compiler mistake shows up as a document that does not validate.

#include <string>

#include <nlohmann/json.hpp>

namespace hearth::test {

inline size_t codePoints(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

inline bool typeMatches(const nlohmann::json& v, const std::string& t) {
    if (t == "null") return v.is_null();
    if (t == "boolean") return v.is_boolean();
    if (t == "integer") return v.is_number_integer() || v.is_number_unsigned();
    if (t == "number") return v.is_number();
    if (t == "string") return v.is_string();
    if (t == "array") return v.is_array();
    if (t == "object") return v.is_object();
    return false;
}

inline bool validates(const nlohmann::json& v, const nlohmann::json& s, const nlohmann::json& root, std::string* why,
                      int depth = 0) {
    using nlohmann::json;
    auto fail = [&](const std::string& m) {
        if (why) *why = m + " at " + v.dump().substr(0, 80);
        return false;
    };
    if (depth > 200) return fail("too deep");
    if (s.is_boolean()) return s.get<bool>() || fail("false schema");
    if (s.contains("$ref")) {
        const std::string ref = s["$ref"];
        return validates(v, root.at(json::json_pointer(ref.substr(1))), root, why, depth + 1);
    }
    if (s.contains("allOf"))
        for (const auto& a : s["allOf"])
            if (!validates(v, a, root, why, depth + 1)) return false;
    for (const char* k : {"anyOf", "oneOf"}) {
        if (!s.contains(k)) continue;
        int matches = 0;
        for (const auto& a : s[k]) matches += validates(v, a, root, nullptr, depth + 1);
        if (matches == 0) return fail(std::string("no ") + k + " alternative matches");
        if (std::string(k) == "oneOf" && matches > 1) return fail("several oneOf alternatives match");
    }
    if (s.contains("type")) {
        bool ok = false;
        if (s["type"].is_string()) ok = typeMatches(v, s["type"]);
        else for (const auto& t : s["type"]) ok |= typeMatches(v, t);
        if (!ok && s.value("nullable", false) && v.is_null()) ok = true;
        if (!ok) return fail("type");
    }
    if (s.contains("const") && v != s["const"]) return fail("const");
    if (s.contains("enum")) {
        bool ok = false;
        for (const auto& e : s["enum"]) ok |= (v == e);
        if (!ok) return fail("enum");
    }
    if (v.is_string()) {
        const size_t n = codePoints(v.get<std::string>());
        if (s.contains("minLength") && n < s["minLength"].get<size_t>()) return fail("minLength");
        if (s.contains("maxLength") && n > s["maxLength"].get<size_t>()) return fail("maxLength");
    }
    if (v.is_array()) {
        if (s.contains("minItems") && v.size() < s["minItems"].get<size_t>()) return fail("minItems");
        if (s.contains("maxItems") && v.size() > s["maxItems"].get<size_t>()) return fail("maxItems");
        if (s.contains("items"))
            for (const auto& item : v)
                if (!validates(item, s["items"], root, why, depth + 1)) return false;
    }
    if (v.is_object()) {
        if (s.contains("required"))
            for (const auto& r : s["required"])
                if (!v.contains(r.get<std::string>())) return fail("required " + r.get<std::string>());
        const json props = s.value("properties", json::object());
        for (const auto& [k, item] : v.items()) {
            if (props.contains(k)) {
                if (!validates(item, props[k], root, why, depth + 1)) return false;
            } else if (s.contains("additionalProperties")) {
                if (!validates(item, s["additionalProperties"], root, why, depth + 1)) return false;
            }
        }
    }
    return true;
}

}  // namespace hearth::test
