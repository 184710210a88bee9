#include "chat/JsonCodec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "chat/Interpreter.h"
#include "chat/JinjaError.h"
#include "chat/PyFormat.h"
#include "chat/SequenceFilters.h"
#include "chat/Utf8.h"

namespace hearth::chat::json {
namespace {

void dumpString(std::string& out, const std::string& s, bool ensureAscii) {
    out.push_back('"');
    size_t pos = 0;
    while (pos < s.size()) {
        const size_t at = pos;
        const char32_t c = utf8::next(s, pos);
        switch (c) {
            case '"': out += "\\\""; continue;
            case '\\': out += "\\\\"; continue;
            case '\n': out += "\\n"; continue;
            case '\r': out += "\\r"; continue;
            case '\t': out += "\\t"; continue;
            case '\b': out += "\\b"; continue;
            case '\f': out += "\\f"; continue;
            default: break;
        }
        char buf[16];
        if (c < 0x20 || (ensureAscii && c >= 0x7F)) {
            if (c >= 0x10000 && !(c >= 0xDC80 && c <= 0xDCFF)) {
                const char32_t v = c - 0x10000;
                std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", unsigned(0xD800 + (v >> 10)), unsigned(0xDC00 + (v & 0x3FF)));
            } else {
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            }
            out += buf;
        } else {
            out.append(s, at, pos - at);
        }
    }
    out.push_back('"');
}

std::string floatText(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d < 0 ? "-Infinity" : "Infinity";
    return pyformat::floatRepr(d);
}

// A dict key as json.dumps converts it.
std::string keyText(const Value& k) {
    switch (k.type()) {
        case ValueType::String: return k.str();
        case ValueType::Bool: return k.asBool() ? "true" : "false";
        case ValueType::None: return "null";
        case ValueType::Int: return std::to_string(k.asInt());
        case ValueType::Float: return floatText(k.asFloat());
        default: failType("keys must be str, int, float, bool or None, not " + k.typeName());
    }
}

struct Dumper {
    const DumpOptions& o;
    std::string out;
    int depth = 0;

    void newline(int level) {
        out.push_back('\n');
        for (int i = 0; i < level; ++i) out += *o.indent;
    }

    void value(const Value& v, int level) {
        if (++depth > 1000) fail(JinjaError::Kind::Value, "value nested too deeply for JSON");
        switch (v.type()) {
            case ValueType::None: out += "null"; break;
            case ValueType::Bool: out += v.asBool() ? "true" : "false"; break;
            case ValueType::Int: out += std::to_string(v.asInt()); break;
            case ValueType::Float: out += floatText(v.asFloat()); break;
            case ValueType::String: dumpString(out, v.str(), o.ensureAscii); break;
            case ValueType::List:
            case ValueType::Tuple: {
                const auto& items = v.items();
                if (items.empty()) {
                    out += "[]";
                    break;
                }
                out.push_back('[');
                for (size_t i = 0; i < items.size(); ++i) {
                    if (i) out += o.itemSeparator;
                    if (o.indent) newline(level + 1);
                    value(items[i], level + 1);
                }
                if (o.indent) newline(level);
                out.push_back(']');
                break;
            }
            case ValueType::Dict: {
                std::vector<std::pair<Value, Value>> entries = v.dictObj().entries;
                if (entries.empty()) {
                    out += "{}";
                    break;
                }
                if (o.sortKeys) {
                    std::vector<Value> items, keys;
                    for (auto& e : entries) {
                        keys.push_back(e.first);
                        items.push_back(Value::tuple({e.first, e.second}));
                    }
                    filters::stableSortByKey(items, keys, false);
                    entries.clear();
                    for (auto& it : items) entries.emplace_back(it.items()[0], it.items()[1]);
                }
                out.push_back('{');
                for (size_t i = 0; i < entries.size(); ++i) {
                    if (i) out += o.itemSeparator;
                    if (o.indent) newline(level + 1);
                    dumpString(out, keyText(entries[i].first), o.ensureAscii);
                    out += o.keySeparator;
                    value(entries[i].second, level + 1);
                }
                if (o.indent) newline(level);
                out.push_back('}');
                break;
            }
            default:
                failType("Object of type " + v.typeName() + " is not JSON serializable");
        }
        Interpreter::checkSize(out.size());
        --depth;
    }
};

}  // namespace

namespace {
Value fromJsonAt(const nlohmann::ordered_json& j, int depth);
}

Value fromJson(const nlohmann::ordered_json& j) { return fromJsonAt(j, 0); }

namespace {
Value fromJsonAt(const nlohmann::ordered_json& j, int depth) {
    if (depth > 512) fail(JinjaError::Kind::Value, "the context nests JSON deeper than 512 levels");
    switch (j.type()) {
        case nlohmann::ordered_json::value_t::null: return Value::none();
        case nlohmann::ordered_json::value_t::boolean: return Value(j.get<bool>());
        case nlohmann::ordered_json::value_t::number_integer: return Value(j.get<int64_t>());
        case nlohmann::ordered_json::value_t::number_unsigned: {
            const auto u = j.get<uint64_t>();
            if (u > static_cast<uint64_t>(INT64_MAX))
                fail(JinjaError::Kind::Arithmetic, "the context holds the integer " + std::to_string(u) +
                                                       ", beyond this interpreter's 64-bit integers");
            return Value(static_cast<int64_t>(u));
        }
        case nlohmann::ordered_json::value_t::number_float: return Value(j.get<double>());
        case nlohmann::ordered_json::value_t::string: return Value(j.get<std::string>());
        case nlohmann::ordered_json::value_t::array: {
            std::vector<Value> items;
            items.reserve(j.size());
            for (const auto& e : j) items.push_back(fromJsonAt(e, depth + 1));
            return Value::list(std::move(items));
        }
        case nlohmann::ordered_json::value_t::object: {
            auto d = std::make_shared<DictObject>();
            d->entries.reserve(j.size());
            for (auto it = j.begin(); it != j.end(); ++it) d->entries.emplace_back(Value(it.key()), fromJsonAt(it.value(), depth + 1));
            return Value::dict(std::move(d));
        }
        default: failType("binary JSON values are not supported in a template context");
    }
}
}  // namespace

std::string dump(const Value& v, const DumpOptions& options) {
    Dumper d{options, {}, 0};
    d.value(v, 0);
    return std::move(d.out);
}

}  // namespace hearth::chat::json
