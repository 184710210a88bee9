#include "constraint/SchemaCompiler.h"

#include <algorithm>
#include <set>

namespace hearth::constraint {
namespace {

using nlohmann::json;

constexpr int kMaxCompileDepth = 128;
constexpr size_t kMaxNodes = 20000;

// Keywords that restrict values in ways the decoder does not enforce.
const std::set<std::string>& unsupportedKeywords() {
    static const std::set<std::string> k = {
        "pattern", "patternProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas",
        "dependencies", "propertyNames", "contains", "minContains", "maxContains", "prefixItems",
        "additionalItems", "unevaluatedItems", "unevaluatedProperties", "minProperties",
        "maxProperties", "$dynamicRef", "$recursiveRef"};
    return k;
}

// Keywords that constrain the value (as opposed to annotations); used to refuse combinations such
// as {"type": ..., "anyOf": [...]} whose meaning we would otherwise get wrong.
bool hasValueKeywords(const json& s) {
    static const char* k[] = {"type", "enum", "const", "properties", "required", "additionalProperties",
                              "items", "minItems", "maxItems", "minLength", "maxLength"};
    for (const char* name : k)
        if (s.contains(name)) return true;
    return false;
}

Error schemaError(const std::string& message) {
    return makeError(ErrorCode::InvalidArgument, "response_format schema: " + message);
}

uint8_t typeBitOf(const json& v) {
    switch (v.type()) {
    case json::value_t::null: return kNull;
    case json::value_t::boolean: return kBoolean;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return kInteger;
    case json::value_t::number_float: return kNumber;
    case json::value_t::string: return kString;
    case json::value_t::array: return kArray;
    case json::value_t::object: return kObject;
    default: return 0;
    }
}

Result<uint8_t> typeBitNamed(const std::string& name) {
    if (name == "null") return uint8_t(kNull);
    if (name == "boolean") return uint8_t(kBoolean);
    if (name == "integer") return uint8_t(kInteger);
    if (name == "number") return uint8_t(kNumber | kInteger);
    if (name == "string") return uint8_t(kString);
    if (name == "array") return uint8_t(kArray);
    if (name == "object") return uint8_t(kObject);
    return schemaError("unknown type '" + name + "'");
}

// The canonical text the decoder matches for a literal: compact, UTF-8 kept as is.
std::string canonical(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::strict); }

Result<int> readCount(const json& s, const char* key, int fallback) {
    if (!s.contains(key)) return fallback;
    const json& v = s[key];
    if (!v.is_number_integer() && !v.is_number_unsigned()) return schemaError(std::string(key) + " must be an integer");
    const auto x = v.get<long long>();
    if (x < 0) return schemaError(std::string(key) + " must not be negative");
    return x > kUnbounded ? kUnbounded : static_cast<int>(x);
}

// Disjoint groups for anyOf merging: integer and number share one.
uint8_t typeGroup(uint8_t bits) {
    uint8_t g = bits & ~(kInteger | kNumber);
    if (bits & (kInteger | kNumber)) g |= kNumber;
    return g;
}

}  // namespace

CompiledSchema SchemaCompiler::anyObject() {
    CompiledSchema s;
    s.nodes.push_back(SchemaNode{});
    SchemaNode obj;
    obj.types = kObject;
    s.nodes.push_back(obj);
    s.root = 1;
    return s;
}

Result<CompiledSchema> SchemaCompiler::compile(std::string_view schemaJson) {
    json doc = json::parse(schemaJson.begin(), schemaJson.end(), nullptr, false);
    if (doc.is_discarded()) return schemaError("not valid JSON");
    try {
        SchemaCompiler c(doc);
        c.out_.nodes.push_back(SchemaNode{});  // 0: any value
        auto root = c.compileNode(doc, 0);
        if (!root) return root.error();
        c.out_.root = *root;
        HEARTH_TRY(c.pruneUnsatisfiable());
        return std::move(c.out_);
    } catch (const std::exception& e) {  // nlohmann throws on bad pointers and wrong value types
        return schemaError(e.what());
    }
}

int SchemaCompiler::addNode(SchemaNode node) {
    out_.nodes.push_back(std::move(node));
    return static_cast<int>(out_.nodes.size() - 1);
}

Result<int> SchemaCompiler::compileNode(const json& s, int depth) {
    if (depth > kMaxCompileDepth) return schemaError("nested too deeply");
    if (out_.nodes.size() > kMaxNodes) return schemaError("too large");
    if (s.is_boolean()) {
        if (s.get<bool>()) return 0;
        return schemaError("the schema 'false' accepts nothing");
    }
    if (!s.is_object()) return schemaError("a schema must be an object or a boolean");
    for (const auto& [key, value] : s.items())
        if (unsupportedKeywords().count(key)) return schemaError("keyword '" + key + "' is not supported");
    if (s.contains("uniqueItems") && s["uniqueItems"].is_boolean() && s["uniqueItems"].get<bool>())
        return schemaError("keyword 'uniqueItems' is not supported");

    if (s.contains("$ref")) {
        if (!s["$ref"].is_string()) return schemaError("$ref must be a string");
        if (hasValueKeywords(s)) return schemaError("$ref next to other constraints is not supported");
        return compileRef(s["$ref"].get<std::string>(), depth);
    }
    for (const char* combinator : {"anyOf", "oneOf", "allOf"}) {
        if (!s.contains(combinator)) continue;
        const json& alts = s[combinator];
        if (!alts.is_array() || alts.empty()) return schemaError(std::string(combinator) + " must be a non-empty array");
        if (hasValueKeywords(s)) return schemaError(std::string(combinator) + " next to other constraints is not supported");
        if (std::string(combinator) == "allOf") {
            if (alts.size() != 1) return schemaError("allOf with more than one schema is not supported");
            return compileNode(alts[0], depth + 1);
        }
        return compileAlternatives(alts, depth + 1);
    }

    SchemaNode node;
    if (s.contains("type")) {
        const json& t = s["type"];
        node.types = 0;
        if (t.is_string()) {
            auto bit = typeBitNamed(t.get<std::string>());
            if (!bit) return bit.error();
            node.types = *bit;
        } else if (t.is_array() && !t.empty()) {
            for (const auto& name : t) {
                if (!name.is_string()) return schemaError("type must name types");
                auto bit = typeBitNamed(name.get<std::string>());
                if (!bit) return bit.error();
                node.types |= *bit;
            }
        } else {
            return schemaError("type must be a string or a non-empty array");
        }
    } else if (s.contains("properties") || s.contains("required") || s.contains("additionalProperties")) {
        node.types = kObject;
    } else if (s.contains("items") || s.contains("minItems") || s.contains("maxItems")) {
        node.types = kArray;
    } else if (s.contains("minLength") || s.contains("maxLength")) {
        node.types = kString;
    }
    if (s.contains("nullable") && s["nullable"].is_boolean() && s["nullable"].get<bool>()) node.types |= kNull;

    if (s.contains("const")) {
        HEARTH_TRY(compileLiterals(json::array({s["const"]}), node));
    } else if (s.contains("enum")) {
        if (!s["enum"].is_array() || s["enum"].empty()) return schemaError("enum must be a non-empty array");
        HEARTH_TRY(compileLiterals(s["enum"], node));
    }
    if (node.literals.empty()) {
        if (node.types & kString) {
            auto minL = readCount(s, "minLength", 0);
            if (!minL) return minL.error();
            auto maxL = readCount(s, "maxLength", kUnbounded);
            if (!maxL) return maxL.error();
            if (*minL > *maxL) return schemaError("minLength is larger than maxLength");
            node.minLength = *minL;
            node.maxLength = *maxL;
        }
        if (node.types & kArray) HEARTH_TRY(compileArray(s, node, depth));
        if (node.types & kObject) HEARTH_TRY(compileObject(s, node, depth));
    }
    return addNode(std::move(node));
}

Status SchemaCompiler::compileLiterals(const json& values, SchemaNode& node) {
    std::set<std::string> seen;
    for (const auto& v : values) {
        const uint8_t bit = typeBitOf(v);
        const bool typeOk = (node.types & bit) || (bit == kInteger && (node.types & kNumber)) ||
                            (bit == kNumber && (node.types & kNumber));
        if (!typeOk) continue;  // a value of another type can never validate
        std::string text = canonical(v);
        if (seen.insert(text).second) node.literals.push_back(std::move(text));
    }
    if (node.literals.empty()) return schemaError("no enum/const value matches the schema's type");
    if (node.literals.size() > static_cast<size_t>(kMaxLiterals))
        return schemaError("enum has more than " + std::to_string(kMaxLiterals) + " values");
    return Status::success();
}

Status SchemaCompiler::compileArray(const json& s, SchemaNode& node, int depth) {
    auto minI = readCount(s, "minItems", 0);
    if (!minI) return minI.error();
    auto maxI = readCount(s, "maxItems", kUnbounded);
    if (!maxI) return maxI.error();
    if (*minI > *maxI) return schemaError("minItems is larger than maxItems");
    node.minItems = *minI;
    node.maxItems = *maxI;
    if (s.contains("items")) {
        if (s["items"].is_array()) return schemaError("tuple-form items is not supported");
        ++containerDepth_;
        auto items = compileNode(s["items"], depth + 1);
        --containerDepth_;
        if (!items) return items.error();
        node.items = *items;
    }
    return Status::success();
}

Status SchemaCompiler::compileObject(const json& s, SchemaNode& node, int depth) {
    std::set<std::string> required;
    if (s.contains("required")) {
        if (!s["required"].is_array()) return schemaError("required must be an array");
        for (const auto& r : s["required"]) {
            if (!r.is_string()) return schemaError("required must list property names");
            required.insert(r.get<std::string>());
        }
    }
    ++containerDepth_;
    struct Restore { int& d; ~Restore() { --d; } } restore{containerDepth_};
    std::set<std::string> listed;
    if (s.contains("properties")) {
        if (!s["properties"].is_object()) return schemaError("properties must be an object");
        for (const auto& [name, sub] : s["properties"].items()) {
            auto child = compileNode(sub, depth + 1);
            if (!child) return child.error();
            std::string key = canonical(json(name));
            node.properties.push_back({key.substr(1, key.size() - 2), *child, required.count(name) > 0});
            listed.insert(name);
        }
    }
    node.additional = node.properties.empty() ? 0 : -1;
    if (s.contains("additionalProperties")) {
        const json& a = s["additionalProperties"];
        if (a.is_boolean()) {
            node.additional = a.get<bool>() ? 0 : -1;
        } else {
            auto child = compileNode(a, depth + 1);
            if (!child) return child.error();
            node.additional = *child;
        }
    }
    for (const auto& name : required) {
        if (listed.count(name)) continue;
        if (node.additional < 0)
            return schemaError("required property '" + name + "' is not among the allowed properties");
        std::string key = canonical(json(name));
        node.properties.push_back({key.substr(1, key.size() - 2), node.additional, true});
    }
    if (node.properties.size() > static_cast<size_t>(kMaxProperties))
        return schemaError("more than " + std::to_string(kMaxProperties) + " properties in one object");
    return Status::success();
}

Result<int> SchemaCompiler::compileRef(const std::string& ref, int depth) {
    if (auto it = refSlots_.find(ref); it != refSlots_.end()) {
        auto pending = pendingRefDepth_.find(it->second);
        if (pending != pendingRefDepth_.end() && pending->second == containerDepth_)
            return schemaError("$ref '" + ref + "' refers to itself without an object or array in between");
        return it->second;
    }
    if (ref.empty() || ref[0] != '#') return schemaError("only local $ref ('#...') is supported, got '" + ref + "'");
    const json& target = document_.at(json::json_pointer(ref.substr(1)));
    const int slot = addNode(SchemaNode{});
    refSlots_[ref] = slot;
    pendingRefDepth_[slot] = containerDepth_;
    auto compiled = compileNode(target, depth + 1);
    pendingRefDepth_.erase(slot);
    if (!compiled) return compiled.error();
    SchemaNode copy = out_.nodes[static_cast<size_t>(*compiled)];
    out_.nodes[static_cast<size_t>(slot)] = std::move(copy);
    return slot;
}

Result<int> SchemaCompiler::compileAlternatives(const json& alternatives, int depth) {
    std::vector<int> alts;
    for (const auto& a : alternatives) {
        auto n = compileNode(a, depth);
        if (!n) return n.error();
        if (pendingRefDepth_.count(*n)) return schemaError("anyOf/oneOf over a recursive $ref is not supported");
        alts.push_back(*n);
    }
    if (alts.size() == 1) return alts[0];
    bool anyLiteral = false;
    for (int a : alts) anyLiteral |= !out_.nodes[static_cast<size_t>(a)].literals.empty();

    SchemaNode merged;
    merged.types = 0;
    if (anyLiteral) {
        // Enums together with null/boolean alternatives become one literal list.
        std::set<std::string> seen;
        auto add = [&](const std::string& text) {
            if (seen.insert(text).second) merged.literals.push_back(text);
        };
        for (int a : alts) {
            const SchemaNode& n = out_.nodes[static_cast<size_t>(a)];
            if (!n.literals.empty()) {
                for (const auto& l : n.literals) add(l);
            } else if ((n.types & ~(kNull | kBoolean)) == 0) {
                if (n.types & kNull) add("null");
                if (n.types & kBoolean) { add("true"); add("false"); }
            } else {
                return schemaError("anyOf mixing enum/const with non-literal alternatives is not supported");
            }
        }
        if (merged.literals.size() > static_cast<size_t>(kMaxLiterals)) return schemaError("too many enum values");
        return addNode(std::move(merged));
    }
    uint8_t groups = 0;
    for (int a : alts) {
        const SchemaNode n = out_.nodes[static_cast<size_t>(a)];  // copy: addNode may reallocate later
        if (typeGroup(n.types) & groups)
            return schemaError("anyOf/oneOf alternatives must have different types (the decoder picks one by its first character)");
        groups |= typeGroup(n.types);
        merged.types |= n.types;
        if (n.types & kString) { merged.minLength = n.minLength; merged.maxLength = n.maxLength; }
        if (n.types & kArray) { merged.items = n.items; merged.minItems = n.minItems; merged.maxItems = n.maxItems; }
        if (n.types & kObject) { merged.properties = n.properties; merged.additional = n.additional; }
    }
    return addNode(std::move(merged));
}

Status SchemaCompiler::pruneUnsatisfiable() {
    auto& nodes = out_.nodes;
    std::vector<char> sat(nodes.size(), 0);
    auto objectOk = [&](const SchemaNode& n) {
        for (const auto& p : n.properties)
            if (p.required && !sat[static_cast<size_t>(p.node)]) return false;
        return true;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < nodes.size(); ++i) {
            if (sat[i]) continue;
            const SchemaNode& n = nodes[i];
            bool ok = !n.literals.empty() || (n.types & (kNull | kBoolean | kInteger | kNumber | kString));
            ok = ok || ((n.types & kArray) && (n.minItems == 0 || sat[static_cast<size_t>(n.items)]));
            ok = ok || ((n.types & kObject) && objectOk(n));
            if (ok) { sat[i] = 1; changed = true; }
        }
    }
    if (!sat[static_cast<size_t>(out_.root)]) return schemaError("no finite JSON document satisfies it");
    for (auto& n : nodes) {
        if (!n.literals.empty()) continue;
        if ((n.types & kObject) && !objectOk(n)) n.types &= ~kObject;
        std::erase_if(n.properties, [&](const PropertySpec& p) { return !sat[static_cast<size_t>(p.node)]; });
        if (n.additional >= 0 && !sat[static_cast<size_t>(n.additional)]) n.additional = -1;
        if ((n.types & kArray) && !sat[static_cast<size_t>(n.items)]) {
            if (n.minItems == 0) n.maxItems = 0;
            else n.types &= ~kArray;
        }
    }
    return Status::success();
}

}  // namespace hearth::constraint
