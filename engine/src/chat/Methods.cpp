#include "chat/Methods.h"

#include <set>

#include "chat/Interpreter.h"
#include "chat/JinjaError.h"
#include "chat/PyFormat.h"
#include "chat/PyStr.h"
#include "chat/Sandbox.h"
#include "chat/Utf8.h"

namespace hearth::chat::methods {
namespace {

using Names = std::set<std::string, std::less<>>;

const Names kStrImplemented = {
    "capitalize", "casefold", "center", "count", "endswith", "expandtabs", "find", "format", "format_map", "index",
    "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isspace",
    "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition", "removeprefix", "removesuffix", "replace",
    "rfind", "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
    "swapcase", "title", "upper", "zfill"};
const Names kStrOther = {"encode", "isprintable", "maketrans", "translate"};
const Names kListUnsafe = {"append", "clear", "extend", "insert", "pop", "remove", "reverse", "sort"};
const Names kIntOther = {"real", "imag", "numerator", "denominator", "conjugate", "bit_length", "bit_count",
                         "as_integer_ratio", "to_bytes", "from_bytes", "is_integer"};
const Names kFloatOther = {"real", "imag", "conjugate", "hex", "fromhex", "is_integer", "as_integer_ratio"};

struct BoundMethod final : CallableObject {
    BoundMethod(Value s, std::string m) : self(std::move(s)), method(std::move(m)) {}
    std::string name() const override { return method; }
    Value call(Interpreter& in, CallArgs& args) override { return methods::call(in, self, method, args); }
    Value self;
    std::string method;
};

void positionalOnly(const CallArgs& a, const std::string& name, size_t min, size_t max) {
    if (!a.kwargs.empty()) failType(name + "() takes no keyword arguments");
    if (a.args.size() < min || a.args.size() > max)
        failType(name + "() takes " + (min == max ? "exactly " + std::to_string(min) : "at most " + std::to_string(max)) +
                 " argument(s) (" + std::to_string(a.args.size()) + " given)");
}

std::string needStr(const Value& v, const std::string& what) {
    if (!v.isString()) failType(what + " must be str, not " + v.typeName());
    return v.str();
}

std::optional<int64_t> optIndex(const std::vector<Value>& args, size_t i) {
    if (i >= args.size() || args[i].isNone()) return std::nullopt;
    if (!args[i].isInt() && !args[i].isBool()) failType("slice indices must be integers or None");
    return args[i].asInt();
}

int64_t needInt(const Value& v, const std::string& what) {
    if (!v.isInt() && !v.isBool()) failType("'" + v.typeName() + "' object cannot be interpreted as an integer (" + what + ")");
    return v.asInt();
}

Value listOf(std::vector<std::string> parts, bool markup) {
    std::vector<Value> items;
    items.reserve(parts.size());
    for (auto& p : parts) items.push_back(markup ? Value::markup(std::move(p)) : Value(std::move(p)));
    return Value::list(std::move(items));
}

Value makeView(IteratorObject::Kind kind, const DictObject& d) {
    auto it = std::make_shared<IteratorObject>();
    it->kind = kind;
    for (const auto& [k, v] : d.entries) {
        if (kind == IteratorObject::Kind::DictItems) it->items.push_back(Value::tuple({k, v}));
        else it->items.push_back(kind == IteratorObject::Kind::DictKeys ? k : v);
    }
    return Value::iterator(std::move(it));
}

bool affix(const Value& self, const CallArgs& a, const std::string& name, bool suffix) {
    positionalOnly(a, name, 1, 3);
    const std::string window = pystr::substr(self.str(), optIndex(a.args, 1), optIndex(a.args, 2));
    auto test = [&](const Value& p) {
        const std::string x = needStr(p, name + " first arg");
        if (x.size() > window.size()) return false;
        return suffix ? window.compare(window.size() - x.size(), x.size(), x) == 0 : window.compare(0, x.size(), x) == 0;
    };
    if (a.args[0].isTuple()) {
        for (const auto& p : a.args[0].items())
            if (test(p)) return true;
        return false;
    }
    if (!a.args[0].isString())
        failType(name + " first arg must be str or a tuple of str, not " + a.args[0].typeName());
    return test(a.args[0]);
}

Value stringMethod(Interpreter& in, const Value& self, const std::string& name, CallArgs& a) {
    const std::string& s = self.str();
    const bool markup = self.isMarkup();
    // Markup's methods return Markup; replace() and the padding methods escape the text they
    // insert (markupsafe 3's behaviour; 2.x also escaped the other arguments).
    auto arg = [&](size_t i, const std::string& what) {
        std::string v = needStr(a.args[i], what);
        return markup && !a.args[i].isMarkup() ? escapeMarkup(v) : v;
    };
    auto result = [&](std::string r) { return markup ? Value::markup(std::move(r)) : Value(std::move(r)); };
    if (name == "upper") return positionalOnly(a, name, 0, 0), result(utf8::upper(s));
    if (name == "lower" || name == "casefold") return positionalOnly(a, name, 0, 0), result(utf8::lower(s));
    if (name == "title") return positionalOnly(a, name, 0, 0), result(pystr::title(s));
    if (name == "capitalize") return positionalOnly(a, name, 0, 0), result(pystr::capitalize(s));
    if (name == "swapcase") return positionalOnly(a, name, 0, 0), result(pystr::swapcase(s));
    if (name == "strip" || name == "lstrip" || name == "rstrip") {
        positionalOnly(a, name, 0, 1);
        std::optional<std::string> chars;
        if (!a.args.empty() && !a.args[0].isNone()) chars = needStr(a.args[0], name + " arg");
        const auto side = name == "strip" ? pystr::Side::Both : name == "lstrip" ? pystr::Side::Left : pystr::Side::Right;
        return result(pystr::strip(s, chars, side));
    }
    if (name == "split" || name == "rsplit") {
        auto b = bindArgs(a, name.c_str(), {"sep", "maxsplit"});
        std::optional<std::string> sep;
        if (b[0] && !b[0]->isNone()) sep = needStr(*b[0], "sep");
        const int64_t maxsplit = b[1] ? needInt(*b[1], "maxsplit") : -1;
        return listOf(name == "split" ? pystr::split(s, sep, maxsplit) : pystr::rsplit(s, sep, maxsplit), markup);
    }
    if (name == "splitlines") {
        auto b = bindArgs(a, name.c_str(), {"keepends"});
        return listOf(pystr::splitlines(s, b[0] && b[0]->truthy()), markup);
    }
    if (name == "startswith") return Value(affix(self, a, name, false));
    if (name == "endswith") return Value(affix(self, a, name, true));
    if (name == "find" || name == "rfind" || name == "index" || name == "rindex") {
        positionalOnly(a, name, 1, 3);
        const int64_t r = pystr::find(s, needStr(a.args[0], "substring"), optIndex(a.args, 1), optIndex(a.args, 2), name[0] == 'r');
        if (r < 0 && (name == "index" || name == "rindex")) fail(JinjaError::Kind::Value, "substring not found");
        return Value(r);
    }
    if (name == "count") {
        positionalOnly(a, name, 1, 3);
        return Value(pystr::count(s, needStr(a.args[0], "substring"), optIndex(a.args, 1), optIndex(a.args, 2)));
    }
    if (name == "replace") {
        positionalOnly(a, name, 2, 3);
        const int64_t count = a.args.size() > 2 ? needInt(a.args[2], "count") : -1;
        return result(pystr::replace(s, needStr(a.args[0], "replace() argument 1"), arg(1, "replace() argument 2"), count));
    }
    if (name == "join") {
        positionalOnly(a, name, 1, 1);
        std::string out;
        size_t i = 0;
        for (const auto& item : a.args[0].iterate()) {
            if (i) out += s;
            if (!item.isString())
                failType("sequence item " + std::to_string(i) + ": expected str instance, " + item.typeName() + " found");
            out += markup && !item.isMarkup() ? escapeMarkup(item.str()) : item.str();
            ++i;
        }
        return result(std::move(out));
    }
    if (name == "format" || name == "format_map") {
        std::vector<Value> args = a.args;
        std::vector<std::pair<std::string, Value>> kwargs = a.kwargs;
        if (name == "format_map") {
            positionalOnly(a, name, 1, 1);
            if (!a.args[0].isDict()) failType("format_map() argument must be a mapping");
            args.clear();
            for (const auto& [k, v] : a.args[0].dictObj().entries)
                if (k.isString()) kwargs.emplace_back(k.str(), v);
        }
        if (markup) {
            // EscapeFormatter: every field's text is escaped unless the value is Markup.
            for (auto& v : args)
                if (v.isString() && !v.isMarkup()) v = Value::markup(escapeMarkup(v.str()));
                else if (!v.isString()) v = Value::markup(escapeMarkup(v.toStr()));
            for (auto& [k, v] : kwargs)
                if (v.isString() && !v.isMarkup()) v = Value::markup(escapeMarkup(v.str()));
                else if (!v.isString()) v = Value::markup(escapeMarkup(v.toStr()));
        }
        auto lookup = [](const Value& obj, const Value& key, bool isAttr) {
            return isAttr ? sandbox::getAttr(obj, key.str()) : sandbox::getItem(obj, key);
        };
        return result(pyformat::braceFormat(s, args, kwargs, lookup));
    }
    if (name == "center" || name == "ljust" || name == "rjust") {
        positionalOnly(a, name, 1, 2);
        const std::string fill = a.args.size() > 1 ? arg(1, "fill character") : " ";
        return result(pystr::pad(s, needInt(a.args[0], "width"), fill, name == "center" ? '^' : name == "ljust" ? '<' : '>'));
    }
    if (name == "zfill") return positionalOnly(a, name, 1, 1), result(pystr::zfill(s, needInt(a.args[0], "width")));
    if (name == "expandtabs") {
        auto b = bindArgs(a, name.c_str(), {"tabsize"});
        return result(pystr::expandtabs(s, b[0] ? needInt(*b[0], "tabsize") : 8));
    }
    if (name == "partition" || name == "rpartition") {
        positionalOnly(a, name, 1, 1);
        const std::string sep = needStr(a.args[0], "separator");
        if (sep.empty()) fail(JinjaError::Kind::Value, "empty separator");
        const size_t hit = name == "partition" ? s.find(sep) : s.rfind(sep);
        std::vector<std::string> parts;
        if (hit == std::string::npos) parts = name == "partition" ? std::vector<std::string>{s, "", ""} : std::vector<std::string>{"", "", s};
        else parts = {s.substr(0, hit), sep, s.substr(hit + sep.size())};
        std::vector<Value> items;
        for (auto& p : parts) items.push_back(markup ? Value::markup(std::move(p)) : Value(std::move(p)));
        return Value::tuple(std::move(items));
    }
    if (name == "removeprefix" || name == "removesuffix") {
        positionalOnly(a, name, 1, 1);
        const std::string x = needStr(a.args[0], name + " arg");
        if (name == "removeprefix" && s.compare(0, x.size(), x) == 0) return result(s.substr(x.size()));
        if (name == "removesuffix" && !x.empty() && s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0)
            return result(s.substr(0, s.size() - x.size()));
        return result(s);
    }
    positionalOnly(a, name, 0, 0);
    if (name == "isdigit" || name == "isdecimal" || name == "isnumeric") return Value(pystr::isDigit(s));
    if (name == "isalpha") return Value(pystr::isAlpha(s));
    if (name == "isalnum") return Value(pystr::isAlnum(s));
    if (name == "isspace") return Value(pystr::isSpace(s));
    if (name == "islower") return Value(pystr::isLower(s));
    if (name == "isupper") return Value(pystr::isUpper(s));
    if (name == "istitle") return Value(pystr::isTitle(s));
    if (name == "isidentifier") return Value(pystr::isIdentifier(s));
    if (name == "isascii") return Value(utf8::isAscii(s));
    (void)in;
    failUnsupported("str." + name + "()");
}

Value dictMethod(const Value& self, const std::string& name, CallArgs& a) {
    const DictObject& d = self.dictObj();
    if (name == "items") return positionalOnly(a, name, 0, 0), makeView(IteratorObject::Kind::DictItems, d);
    if (name == "keys") return positionalOnly(a, name, 0, 0), makeView(IteratorObject::Kind::DictKeys, d);
    if (name == "values") return positionalOnly(a, name, 0, 0), makeView(IteratorObject::Kind::DictValues, d);
    if (name == "get") {
        positionalOnly(a, name, 1, 2);
        if (!a.args[0].isHashable()) failType("unhashable type: '" + a.args[0].typeName() + "'");
        if (const Value* v = d.find(a.args[0])) return *v;
        return a.args.size() > 1 ? a.args[1] : Value::none();
    }
    if (name == "copy") {
        positionalOnly(a, name, 0, 0);
        return Value::dict(std::make_shared<DictObject>(d));
    }
    failUnsupported("dict." + name + "()");
}

Value listMethod(const Value& self, const std::string& name, CallArgs& a) {
    const auto& items = self.items();
    if (name == "count") {
        positionalOnly(a, name, 1, 1);
        int64_t n = 0;
        for (const auto& v : items) n += v.equals(a.args[0]) ? 1 : 0;
        return Value(n);
    }
    if (name == "index") {
        positionalOnly(a, name, 1, 3);
        const auto n = static_cast<int64_t>(items.size());
        auto clamp = [n](std::optional<int64_t> i, int64_t dflt) {
            int64_t v = i ? *i : dflt;
            if (v < 0) v = std::max<int64_t>(0, v + n);
            return std::min(v, n);
        };
        const int64_t from = clamp(optIndex(a.args, 1), 0), to = clamp(optIndex(a.args, 2), n);
        for (int64_t i = from; i < to; ++i)
            if (items[static_cast<size_t>(i)].equals(a.args[0])) return Value(i);
        fail(JinjaError::Kind::Value, a.args[0].repr() + " is not in " + self.typeName());
    }
    if (name == "copy" && self.isList()) {
        positionalOnly(a, name, 0, 0);
        return Value::list(items);
    }
    failUnsupported(self.typeName() + "." + name + "()");
}

}  // namespace

Lookup find(const Value& self, std::string_view name) {
    // Every method name is lower-case ASCII; most lookups are dict keys like "role" that fail the
    // cheap checks below before any table is consulted.
    if (name.empty() || name[0] < 'a' || name[0] > 'z') return Lookup::Missing;
    switch (self.type()) {
        case ValueType::String:
            if (kStrImplemented.count(name)) return Lookup::Safe;
            return kStrOther.count(name) ? Lookup::Unsupported : Lookup::Missing;
        case ValueType::Dict:
            if (name == "items" || name == "keys" || name == "values" || name == "get" || name == "copy") return Lookup::Safe;
            if (name == "clear" || name == "pop" || name == "popitem" || name == "setdefault" || name == "update")
                return Lookup::Unsafe;
            return name == "fromkeys" ? Lookup::Unsupported : Lookup::Missing;
        case ValueType::List:
            if (name == "count" || name == "index" || name == "copy") return Lookup::Safe;
            return kListUnsafe.count(name) ? Lookup::Unsafe : Lookup::Missing;
        case ValueType::Tuple:
            return (name == "count" || name == "index") ? Lookup::Safe : Lookup::Missing;
        case ValueType::Int:
        case ValueType::Bool:
            return kIntOther.count(name) ? Lookup::Unsupported : Lookup::Missing;
        case ValueType::Float:
            return kFloatOther.count(name) ? Lookup::Unsupported : Lookup::Missing;
        default:
            return Lookup::Missing;
    }
}

Value bind(const Value& self, std::string_view name) {
    return Value::callable(std::make_shared<BoundMethod>(self, std::string(name)));
}

Value call(Interpreter& in, const Value& self, const std::string& name, CallArgs& args) {
    if (find(self, name) == Lookup::Unsupported) failUnsupported(self.typeName() + "." + name);
    switch (self.type()) {
        case ValueType::String: return stringMethod(in, self, name, args);
        case ValueType::Dict: return dictMethod(self, name, args);
        case ValueType::List:
        case ValueType::Tuple: return listMethod(self, name, args);
        default: failUnsupported(self.typeName() + "." + name);
    }
}

}  // namespace hearth::chat::methods
