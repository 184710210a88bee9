#include "chat/Filters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "chat/Interpreter.h"
#include "chat/JinjaError.h"
#include "chat/JsonCodec.h"
#include "chat/Operators.h"
#include "chat/PyFormat.h"
#include "chat/PyStr.h"
#include "chat/Sandbox.h"
#include "chat/SequenceFilters.h"
#include "chat/Utf8.h"

namespace hearth::chat::filters {
namespace {

// jinja2's soft_str: str(value), but Markup stays Markup.
Value softStr(const Value& v) { return v.isString() ? v : Value(v.toStr()); }
Value sameKind(const Value& like, std::string s) { return like.isMarkup() ? Value::markup(std::move(s)) : Value(std::move(s)); }

std::string stripUnderscoresAndSpace(const std::string& s, bool& ok) {
    const std::string t = pystr::strip(s, std::nullopt, pystr::Side::Both);
    std::string out;
    ok = !t.empty();
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '_') {
            // Python allows single underscores between digits only.
            if (i == 0 || i + 1 >= t.size() || !std::isalnum(static_cast<unsigned char>(t[i - 1])) ||
                !std::isalnum(static_cast<unsigned char>(t[i + 1])))
                ok = false;
            continue;
        }
        out.push_back(t[i]);
    }
    return out;
}

// int(s, base) for a str, as Python parses it.
std::optional<int64_t> parseInt(const std::string& text, int base) {
    bool ok;
    std::string s = stripUnderscoresAndSpace(text, ok);
    if (!ok) return std::nullopt;
    size_t i = 0;
    bool neg = false;
    if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
    if (i + 1 < s.size() && s[i] == '0') {
        const char p = static_cast<char>(s[i + 1] | 0x20);
        const int prefixBase = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
        if (prefixBase && (base == 0 || base == prefixBase)) {
            base = prefixBase;
            i += 2;
        }
    }
    if (base == 0) {
        base = 10;
        if (s.size() - i > 1 && s[i] == '0' && s.find_first_not_of('0', i) != std::string::npos) return std::nullopt;
    }
    if (i >= s.size()) return std::nullopt;
    int64_t v = 0;
    for (; i < s.size(); ++i) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
        const int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'z') ? c - 'a' + 10 : 99;
        if (d >= base) return std::nullopt;
        if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v))
            fail(JinjaError::Kind::Arithmetic, "integer too large for this interpreter");
    }
    return neg ? -v : v;
}

// float(s) for a str, as Python parses it.
std::optional<double> parseFloat(const std::string& text) {
    bool ok;
    std::string s = stripUnderscoresAndSpace(text, ok);
    if (!ok) return std::nullopt;
    std::string lower = utf8::lower(s);
    const bool neg = !lower.empty() && lower[0] == '-';
    const std::string body = (!lower.empty() && (lower[0] == '-' || lower[0] == '+')) ? lower.substr(1) : lower;
    if (body == "inf" || body == "infinity") return neg ? -INFINITY : INFINITY;
    if (body == "nan") return NAN;
    if (body.find_first_not_of("0123456789.e+-") != std::string::npos) return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    return d;
}

Value doInt(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "int", {"default", "base"});
    const Value dflt = b[0] ? *b[0] : Value(static_cast<int64_t>(0));
    const int base = b[1] ? static_cast<int>(b[1]->asInt()) : 10;
    if (v.isUndefined()) operators::failUndefined(v);
    if (v.isString()) {
        if (auto i = parseInt(v.str(), base)) return Value(*i);
        if (auto f = parseFloat(v.str()); f && std::isfinite(*f)) return Value(static_cast<int64_t>(std::trunc(*f)));
        return dflt;
    }
    if (v.isInt() || v.isBool()) return Value(v.asInt());
    if (v.isFloat()) {
        if (!std::isfinite(v.asFloat())) return dflt;
        return Value(static_cast<int64_t>(std::trunc(v.asFloat())));
    }
    return dflt;
}

Value doFloat(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "float", {"default"});
    const Value dflt = b[0] ? *b[0] : Value(0.0);
    if (v.isUndefined()) operators::failUndefined(v);
    if (v.isNumber()) return Value(v.asFloat());
    if (v.isString()) {
        if (auto f = parseFloat(v.str())) return Value(*f);
    }
    return dflt;
}

Value doAbs(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "abs", {});
    if (v.isFloat()) return Value(std::fabs(v.asFloat()));
    if (v.isInt() || v.isBool()) {
        if (v.asInt() == INT64_MIN) fail(JinjaError::Kind::Arithmetic, "integer overflow");
        return Value(v.asInt() < 0 ? -v.asInt() : v.asInt());
    }
    failType("bad operand type for abs(): '" + v.typeName() + "'");
}

Value doRound(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "round", {"precision", "method"});
    const int64_t precision = b[0] ? b[0]->asInt() : 0;
    const std::string method = b[1] ? b[1]->toStr() : "common";
    if (method != "common" && method != "ceil" && method != "floor")
        fail(JinjaError::Kind::Runtime, "method must be common, ceil or floor");
    if (!v.isNumber()) failType("type " + v.typeName() + " doesn't define __round__ method");
    if (method == "common") {
        if (!v.isFloat()) return precision >= 0 ? Value(v.asInt()) : Value(static_cast<int64_t>(pyformat::roundTo(v.asFloat(), static_cast<int>(precision))));
        return Value(pyformat::roundTo(v.asFloat(), static_cast<int>(precision)));
    }
    const double scale = std::pow(10.0, static_cast<double>(precision));
    const double x = v.asFloat() * scale;
    return Value((method == "ceil" ? std::ceil(x) : std::floor(x)) / scale);
}

Value doString(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "string", {});
    return softStr(v);
}

Value doTrim(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "trim", {"chars"});
    std::optional<std::string> chars;
    if (b[0] && !b[0]->isNone()) chars = b[0]->toStr();
    const Value s = softStr(v);
    return sameKind(s, pystr::strip(s.str(), chars, pystr::Side::Both));
}

Value doUpper(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "upper", {});
    const Value s = softStr(v);
    return sameKind(s, utf8::upper(s.str()));
}

Value doLower(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "lower", {});
    const Value s = softStr(v);
    return sameKind(s, utf8::lower(s.str()));
}

Value doCapitalize(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "capitalize", {});
    const Value s = softStr(v);
    return sameKind(s, pystr::capitalize(s.str()));
}

// jinja2's title: every run split by whitespace, '-', '(', '{', '[' or '<' starts a new word;
// a word is its first character upper-cased and the rest lower-cased.
Value doTitle(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "title", {});
    const Value s = softStr(v);
    const std::string& text = s.str();
    std::string out;
    bool wordStart = true;
    size_t pos = 0;
    while (pos < text.size()) {
        const char32_t c = utf8::next(text, pos);
        const bool sep = utf8::isSpace(c) || c == '-' || c == '(' || c == '{' || c == '[' || c == '<';
        if (sep) {
            utf8::append(out, c);
            wordStart = true;
            continue;
        }
        if (wordStart && c == 0xDF) out += "SS";  // str.upper() of 'ß'
        else utf8::append(out, wordStart ? utf8::toUpper(c) : utf8::toLower(c));
        wordStart = false;
    }
    return sameKind(s, std::move(out));
}

Value doReplace(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "replace", {"old", "new", "count"}, 2);
    const int64_t count = (b[2] && !b[2]->isNone()) ? b[2]->asInt() : -1;
    return Value(pystr::replace(v.toStr(), b[0]->toStr(), b[1]->toStr(), count));
}

Value doIndent(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "indent", {"width", "first", "blank"});
    std::string indention;
    if (b[0] && b[0]->isString()) {
        indention = b[0]->str();
    } else {
        const int64_t w = b[0] ? b[0]->asInt() : 4;
        indention.assign(w > 0 ? static_cast<size_t>(w) : 0, ' ');
    }
    const bool first = b[1] && b[1]->truthy();
    const bool blank = b[2] && b[2]->truthy();
    if (v.isUndefined()) operators::failUndefined(v);
    if (!v.isString()) failType("unsupported operand type(s) for +=: '" + v.typeName() + "' and 'str'");
    const std::vector<std::string> lines = pystr::splitlines(v.str() + "\n", false);
    std::string rv;
    if (blank) {
        for (size_t i = 0; i < lines.size(); ++i) {
            if (i) rv += "\n" + indention;
            rv += lines[i];
        }
    } else {
        rv = lines.empty() ? std::string() : lines[0];
        for (size_t i = 1; i < lines.size(); ++i) {
            rv += "\n";
            if (!lines[i].empty()) rv += indention;
            rv += lines[i];
        }
    }
    if (first) rv = indention + rv;
    return sameKind(v, std::move(rv));
}

Value doCenter(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "center", {"width"});
    const Value s = softStr(v);
    return sameKind(s, pystr::pad(s.str(), b[0] ? b[0]->asInt() : 80, " ", '^'));
}

Value doWordcount(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "wordcount", {});
    const std::string s = v.toStr();
    int64_t n = 0;
    bool inWord = false;
    size_t pos = 0;
    while (pos < s.size()) {
        const bool w = utf8::isWordChar(utf8::next(s, pos));
        if (w && !inWord) ++n;
        inWord = w;
    }
    return Value(n);
}

Value doDefault(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "default", {"default_value", "boolean"});
    const Value dflt = b[0] ? *b[0] : Value("");
    const bool boolean = b[1] && b[1]->truthy();
    if (v.isUndefined() || (boolean && !v.truthy())) return dflt;
    return v;
}

Value doSafe(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "safe", {});
    return v.isMarkup() ? v : Value::markup(v.toStr());
}

Value doEscape(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "escape", {});
    return v.isMarkup() ? v : Value::markup(escapeMarkup(v.toStr()));
}

Value doForceescape(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "forceescape", {});
    return Value::markup(escapeMarkup(v.toStr()));
}

// transformers' tojson: json.dumps(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False).
Value doTojson(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "tojson", {"ensure_ascii", "indent", "separators", "sort_keys"});
    json::DumpOptions o;
    o.ensureAscii = b[0] && b[0]->truthy();
    if (b[1] && !b[1]->isNone()) {
        if (b[1]->isString()) o.indent = b[1]->str();
        else if (b[1]->isInt() || b[1]->isBool()) o.indent = std::string(static_cast<size_t>(std::max<int64_t>(0, b[1]->asInt())), ' ');
        else failType("indent must be an int or a str");
        o.itemSeparator.assign(1, ',');  // json.dumps drops the space once there is an indent
    }
    if (b[2] && !b[2]->isNone()) {
        const auto parts = b[2]->iterate();
        if (parts.size() != 2 || !parts[0].isString() || !parts[1].isString())
            fail(JinjaError::Kind::Value, "separators must be an (item_separator, key_separator) pair of strings");
        o.itemSeparator = parts[0].str();
        o.keySeparator = parts[1].str();
    }
    o.sortKeys = b[3] && b[3]->truthy();
    return Value(json::dump(v, o));
}

Value doFormat(Interpreter&, const Value& v, CallArgs& a) {
    if (!a.args.empty() && !a.kwargs.empty())
        fail(JinjaError::Kind::Runtime, "can't handle positional and keyword arguments at the same time");
    Value args;
    if (!a.kwargs.empty()) {
        auto d = std::make_shared<DictObject>();
        for (const auto& [k, val] : a.kwargs) d->set(Value(k), val);
        args = Value::dict(std::move(d));
    } else {
        args = Value::tuple(a.args);
    }
    return operators::binary(BinaryExpr::Op::Mod, softStr(v), args);
}

Value doAttr(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "attr", {"name"}, 1);
    return sandbox::attributeOnly(v, b[0]->toStr());
}

const std::unordered_map<std::string, FilterFn>& stringFilters() {
    static const std::unordered_map<std::string, FilterFn> table = {
        {"int", doInt}, {"float", doFloat}, {"abs", doAbs}, {"round", doRound}, {"string", doString},
        {"trim", doTrim}, {"upper", doUpper}, {"lower", doLower}, {"capitalize", doCapitalize}, {"title", doTitle},
        {"replace", doReplace}, {"indent", doIndent}, {"center", doCenter}, {"wordcount", doWordcount},
        {"default", doDefault}, {"d", doDefault}, {"safe", doSafe}, {"escape", doEscape}, {"e", doEscape},
        {"forceescape", doForceescape}, {"tojson", doTojson}, {"format", doFormat}, {"attr", doAttr},
    };
    return table;
}

}  // namespace

Value attributePath(const Value& item, const Value& attribute) {
    if (!attribute.isString()) return sandbox::getItem(item, attribute);
    Value cur = item;
    for (const auto& part : pystr::split(attribute.str(), std::string("."), -1)) {
        const bool digits = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
        if (!digits) {
            cur = sandbox::getItem(cur, Value(part));
            continue;
        }
        int64_t index = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), index);
        if (ec != std::errc()) return Value::undefined("no element " + part);  // beyond any sequence
        cur = sandbox::getItem(cur, Value(index));
    }
    return cur;
}

Value foldCase(const Value& v, bool caseSensitive) {
    if (caseSensitive || !v.isString()) return v;
    return Value(utf8::lower(v.str()));
}

Value apply(Interpreter& in, const std::string& name, const Value& input, CallArgs& args) {
    const auto& table = stringFilters();
    if (auto it = table.find(name); it != table.end()) return it->second(in, input, args);
    if (FilterFn f = findSequenceFilter(name)) return f(in, input, args);
    failUnsupported("the '" + name + "' filter");
}

}  // namespace hearth::chat::filters
