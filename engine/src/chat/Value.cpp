#include "chat/Value.h"

#include <cmath>
#include <cstdio>

#include "chat/JinjaError.h"
#include "chat/PyFormat.h"
#include "chat/Utf8.h"

namespace hearth::chat {
namespace {

// Python's repr() of a str: single quotes unless the text has ' and no ", escapes for the quote,
// backslash, \t \n \r and every code point str.isprintable() rejects.
std::string reprString(std::string_view s) {
    const bool hasSingle = s.find('\'') != std::string_view::npos;
    const bool hasDouble = s.find('"') != std::string_view::npos;
    const char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string out;
    out.reserve(s.size() + 2);
    out.push_back(quote);
    size_t pos = 0;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        if (c == static_cast<char32_t>(quote) || c == '\\') {
            out.push_back('\\');
            out.push_back(static_cast<char>(c));
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (!utf8::isPrintable(c)) {
            char buf[16];
            if (c >= 0xDC80 && c <= 0xDCFF) std::snprintf(buf, sizeof buf, "\\udc%02x", unsigned(c - 0xDC00));
            else if (c < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
            else if (c < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            else std::snprintf(buf, sizeof buf, "\\U%08x", unsigned(c));
            out += buf;
        } else {
            utf8::append(out, c);
        }
    }
    out.push_back(quote);
    return out;
}

std::string joinRepr(const std::vector<Value>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += items[i].repr();
    }
    return out;
}

std::string dictRepr(const DictObject& d) {
    std::string out = "{";
    for (size_t i = 0; i < d.entries.size(); ++i) {
        if (i) out += ", ";
        out += d.entries[i].first.repr();
        out += ": ";
        out += d.entries[i].second.repr();
    }
    return out + "}";
}

// Built with append, not "(" + ... + ")": GCC 12 warns falsely (-Wrestrict) on that form.
std::string wrap(const char* open, const std::string& inner, const char* close) {
    std::string out(open);
    out += inner;
    out += close;
    return out;
}

std::string tupleRepr(const std::vector<Value>& items) {
    if (items.size() == 1) return wrap("(", items[0].repr(), ",)");
    return wrap("(", joinRepr(items), ")");
}

std::string iteratorStr(const IteratorObject& it) {
    switch (it.kind) {
        case IteratorObject::Kind::DictItems: return "dict_items([" + joinRepr(it.items) + "])";
        case IteratorObject::Kind::DictKeys: return "dict_keys([" + joinRepr(it.items) + "])";
        case IteratorObject::Kind::DictValues: return "dict_values([" + joinRepr(it.items) + "])";
        case IteratorObject::Kind::Range: {
            std::string out = "range(" + std::to_string(it.rangeStart) + ", " + std::to_string(it.rangeStop);
            if (it.rangeStep != 1) out += ", " + std::to_string(it.rangeStep);
            return out + ")";
        }
        default:
            failUnsupported(std::string("printing a ") + it.typeName() +
                            " object (Python prints its memory address); convert it with |list first");
    }
}

}  // namespace

ListObject::~ListObject() = default;
DictObject::~DictObject() = default;
IteratorObject::~IteratorObject() = default;

const Value* DictObject::find(const Value& key) const {
    if (key.isString()) return findStr(key.str());
    for (const auto& [k, v] : entries)
        if (k.equals(key)) return &v;
    return nullptr;
}

const Value* DictObject::findStr(std::string_view key) const {
    for (const auto& [k, v] : entries)
        if (k.isString() && k.str() == key) return &v;
    return nullptr;
}

void DictObject::set(Value key, Value value) {
    if (!key.isHashable()) failType("unhashable type: '" + key.typeName() + "'");
    for (auto& [k, v] : entries) {
        if (k.equals(key)) {
            v = std::move(value);
            return;
        }
    }
    entries.emplace_back(std::move(key), std::move(value));
}

bool IteratorObject::reusable() const { return kind != Kind::Generator && kind != Kind::ListReverse && kind != Kind::DictItemIterator; }
bool IteratorObject::hasLength() const { return reusable(); }

const char* IteratorObject::typeName() const {
    switch (kind) {
        case Kind::Generator: return "generator";
        case Kind::DictItems: return "dict_items";
        case Kind::DictKeys: return "dict_keys";
        case Kind::DictValues: return "dict_values";
        case Kind::Range: return "range";
        case Kind::ListReverse: return "list_reverseiterator";
        case Kind::DictItemIterator: return "dict_itemiterator";
    }
    return "iterator";
}

std::vector<Value> IteratorObject::iterate() {
    if (reusable()) return items;
    if (consumed) return {};
    consumed = true;
    if (produce) {
        auto fn = std::move(produce);
        produce = nullptr;
        return fn();
    }
    return std::move(items);
}

Value Value::none() {
    Value v;
    v.type_ = ValueType::None;
    return v;
}

Value Value::undefined(std::string message, bool security) {
    Value v;
    auto u = std::make_shared<UndefinedObject>();
    u->message = std::move(message);
    u->security = security;
    v.obj_ = std::move(u);
    return v;
}

Value Value::markup(std::string s) {
    Value v(std::move(s));
    v.markup_ = true;
    return v;
}

Value Value::list(std::vector<Value> items) {
    Value v;
    v.type_ = ValueType::List;
    auto l = std::make_shared<ListObject>();
    l->items = std::move(items);
    v.obj_ = std::move(l);
    return v;
}

Value Value::tuple(std::vector<Value> items) {
    Value v = list(std::move(items));
    v.type_ = ValueType::Tuple;
    return v;
}

Value Value::dict(std::shared_ptr<DictObject> d) {
    Value v;
    v.type_ = ValueType::Dict;
    v.obj_ = d ? std::move(d) : std::make_shared<DictObject>();
    return v;
}

Value Value::ns(std::shared_ptr<DictObject> attrs) {
    Value v = dict(std::move(attrs));
    v.type_ = ValueType::Namespace;
    return v;
}

Value Value::iterator(std::shared_ptr<IteratorObject> it) {
    Value v;
    v.type_ = ValueType::Iterator;
    v.obj_ = std::move(it);
    return v;
}

Value Value::callable(std::shared_ptr<CallableObject> c) {
    Value v;
    v.type_ = ValueType::Callable;
    v.obj_ = std::move(c);
    return v;
}

Value Value::loop(std::shared_ptr<HeapObject> l) {
    Value v;
    v.type_ = ValueType::Loop;
    v.obj_ = std::move(l);
    return v;
}

double Value::asFloat() const {
    if (isFloat()) return f_;
    return static_cast<double>(asInt());
}

std::string Value::undefinedMessage() const {
    if (obj_) return static_cast<const UndefinedObject&>(*obj_).message;
    return "value is undefined";
}

bool Value::undefinedIsSecurity() const {
    return obj_ && static_cast<const UndefinedObject&>(*obj_).security;
}

bool Value::truthy() const {
    switch (type_) {
        case ValueType::Undefined:
        case ValueType::None: return false;
        case ValueType::Bool: return b_;
        case ValueType::Int: return i_ != 0;
        case ValueType::Float: return f_ != 0.0;
        case ValueType::String: return !str().empty();
        case ValueType::List:
        case ValueType::Tuple: return !items().empty();
        case ValueType::Dict: return !dictObj().entries.empty();
        case ValueType::Iterator: return iteratorObj().hasLength() ? !iteratorObj().items.empty() : true;
        default: return true;
    }
}

std::string Value::toStr() const {
    switch (type_) {
        case ValueType::Undefined: return "";
        case ValueType::String: return str();
        case ValueType::Float: return pyformat::floatRepr(f_);
        case ValueType::Int: return std::to_string(i_);
        case ValueType::Bool: return b_ ? "True" : "False";
        case ValueType::None: return "None";
        default: return repr();
    }
}

std::string Value::repr() const {
    switch (type_) {
        case ValueType::Undefined: return "Undefined";
        case ValueType::String: return markup_ ? wrap("Markup(", reprString(str()), ")") : reprString(str());
        case ValueType::List: return wrap("[", joinRepr(items()), "]");
        case ValueType::Tuple: return tupleRepr(items());
        case ValueType::Dict: return dictRepr(dictObj());
        case ValueType::Namespace: return wrap("<Namespace ", dictRepr(dictObj()), ">");
        case ValueType::Iterator: return iteratorStr(iteratorObj());
        case ValueType::Callable:
            failUnsupported("printing the function '" + callableObj().name() +
                            "' (Python prints its memory address); call it instead");
        case ValueType::Loop: failUnsupported("printing the loop object");
        default: return toStr();
    }
}

bool Value::equals(const Value& o) const {
    if (isNumber() && o.isNumber()) {
        if (isFloat() || o.isFloat()) return asFloat() == o.asFloat();
        return asInt() == o.asInt();
    }
    if (type_ != o.type_) return false;
    switch (type_) {
        case ValueType::Undefined:
        case ValueType::None: return true;
        case ValueType::String: return str() == o.str();
        case ValueType::List:
        case ValueType::Tuple: {
            const auto& a = items();
            const auto& b = o.items();
            if (a.size() != b.size()) return false;
            for (size_t i = 0; i < a.size(); ++i)
                if (!a[i].equals(b[i])) return false;
            return true;
        }
        case ValueType::Dict: {
            const auto& a = dictObj().entries;
            if (a.size() != o.dictObj().entries.size()) return false;
            for (const auto& [k, v] : a) {
                const Value* other = o.dictObj().find(k);
                if (!other || !other->equals(v)) return false;
            }
            return true;
        }
        case ValueType::Iterator:
            if (iteratorObj().kind == IteratorObject::Kind::Range && o.iteratorObj().kind == IteratorObject::Kind::Range)
                return Value::list(iteratorObj().items).equals(Value::list(o.iteratorObj().items));
            return obj_ == o.obj_;
        default: return obj_ == o.obj_;
    }
}

bool Value::isHashable() const {
    switch (type_) {
        case ValueType::List:
        case ValueType::Dict: return false;
        case ValueType::Tuple:
            for (const auto& v : items())
                if (!v.isHashable()) return false;
            return true;
        default: return true;
    }
}

std::string Value::typeName() const {
    switch (type_) {
        case ValueType::Undefined: return "Undefined";
        case ValueType::None: return "NoneType";
        case ValueType::Bool: return "bool";
        case ValueType::Int: return "int";
        case ValueType::Float: return "float";
        case ValueType::String: return markup_ ? "Markup" : "str";
        case ValueType::List: return "list";
        case ValueType::Tuple: return "tuple";
        case ValueType::Dict: return "dict";
        case ValueType::Namespace: return "Namespace";
        case ValueType::Iterator: return iteratorObj().typeName();
        case ValueType::Callable: return callableObj().isMacro() ? "Macro" : "builtin_function_or_method";
        case ValueType::Loop: return "LoopContext";
    }
    return "object";
}

std::vector<Value> Value::iterate() const {
    switch (type_) {
        case ValueType::Undefined: return {};
        case ValueType::String: {
            std::vector<Value> out;
            const std::string& s = str();
            size_t pos = 0;
            while (pos < s.size()) {
                const size_t start = pos;
                utf8::next(s, pos);
                out.emplace_back(s.substr(start, pos - start));
            }
            return out;
        }
        case ValueType::List:
        case ValueType::Tuple: return items();
        case ValueType::Dict: {
            std::vector<Value> out;
            out.reserve(dictObj().entries.size());
            for (const auto& e : dictObj().entries) out.push_back(e.first);
            return out;
        }
        case ValueType::Iterator: return iteratorObj().iterate();
        case ValueType::Loop: failUnsupported("iterating over the loop object");
        default: failType("'" + typeName() + "' object is not iterable");
    }
}

int64_t Value::length() const {
    switch (type_) {
        case ValueType::Undefined: return 0;
        case ValueType::String: return static_cast<int64_t>(utf8::length(str()));
        case ValueType::List:
        case ValueType::Tuple: return static_cast<int64_t>(items().size());
        case ValueType::Dict: return static_cast<int64_t>(dictObj().entries.size());
        case ValueType::Iterator:
            if (iteratorObj().hasLength()) return static_cast<int64_t>(iteratorObj().items.size());
            break;
        default: break;
    }
    failType("object of type '" + typeName() + "' has no len()");
}

int compareValues(const Value& a, const Value& b, const char* op) {
    if (a.isUndefined() || b.isUndefined())
        fail(JinjaError::Kind::Undefined, (a.isUndefined() ? a : b).undefinedMessage());
    if (a.isNumber() && b.isNumber()) {
        if (a.isFloat() || b.isFloat()) {
            const double x = a.asFloat(), y = b.asFloat();
            return x < y ? -1 : (x > y ? 1 : 0);
        }
        const int64_t x = a.asInt(), y = b.asInt();
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    if (a.isString() && b.isString()) {
        const int c = a.str().compare(b.str());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
        const auto& x = a.items();
        const auto& y = b.items();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
            if (x[i].equals(y[i])) continue;
            return compareValues(x[i], y[i], op);
        }
        return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
    }
    failType(std::string("'") + op + "' not supported between instances of '" + a.typeName() + "' and '" +
             b.typeName() + "'");
}

std::string escapeMarkup(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '\'': out += "&#39;"; break;
            case '"': out += "&#34;"; break;
            default: out.push_back(c);
        }
    }
    return out;
}

}  // namespace hearth::chat
