#include "chat/Sandbox.h"

#include "chat/JinjaError.h"
#include "chat/LoopObject.h"
#include "chat/Methods.h"
#include "chat/Operators.h"
#include "chat/Utf8.h"

namespace hearth::chat::sandbox {
namespace {

// "'dict object' has no attribute 'x'" / "list object has no element 3", as jinja2 words it.
Value missing(const Value& obj, const Value& key) {
    std::string type = obj.isNone() ? "None" : obj.typeName() + " object";
    if (key.isString()) return Value::undefined("'" + type + "' has no attribute '" + key.str() + "'");
    return Value::undefined(type + " has no element " + key.repr());
}

Value unsafe(const Value& obj, std::string_view name) {
    return Value::undefined("access to attribute '" + std::string(name) + "' of '" + obj.typeName() + "' object is unsafe.", true);
}

bool isDunder(std::string_view name) {
    return name.size() > 4 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) == "__";
}

// getattr(obj, name) as Python resolves it, through the sandbox; nullopt when there is no attribute.
std::optional<Value> pythonAttribute(const Value& obj, std::string_view name) {
    if (obj.isNamespace()) {
        const Value* v = obj.dictObj().findStr(name);
        if (!v) return std::nullopt;
        if (!name.empty() && name[0] == '_') return unsafe(obj, name);
        return *v;
    }
    if (obj.isLoop()) {
        auto loop = std::static_pointer_cast<LoopObject>(obj.object());
        if (auto v = loop->attribute(name, loop)) return v;
        if (isDunder(name)) return unsafe(obj, name);
        return std::nullopt;
    }
    if (isDunder(name)) return unsafe(obj, name);
    switch (methods::find(obj, name)) {
        case methods::Lookup::Missing: return std::nullopt;
        case methods::Lookup::Unsafe: return unsafe(obj, name);
        default: break;
    }
    if (!name.empty() && name[0] == '_') return unsafe(obj, name);
    return methods::bind(obj, name);
}

// obj[key] as Python does it; nullopt for a missing key or an index Python rejects.
std::optional<Value> pythonItem(const Value& obj, const Value& key) {
    switch (obj.type()) {
        case ValueType::Dict: {
            if (!key.isHashable()) return std::nullopt;
            const Value* v = obj.dictObj().find(key);
            if (v) return *v;
            return std::nullopt;
        }
        case ValueType::List:
        case ValueType::Tuple:
        case ValueType::String:
        case ValueType::Iterator: {
            if (!key.isInt() && !key.isBool()) return std::nullopt;
            if (obj.isIterator() && obj.iteratorObj().kind != IteratorObject::Kind::Range) return std::nullopt;
            int64_t i = key.asInt();
            if (obj.isString()) {
                const std::string& s = obj.str();
                const auto n = static_cast<int64_t>(utf8::length(s));
                if (i < 0) i += n;
                if (i < 0 || i >= n) return std::nullopt;
                const size_t start = utf8::byteOffset(s, static_cast<size_t>(i));
                size_t end = start;
                utf8::next(s, end);
                std::string ch = s.substr(start, end - start);
                return obj.isMarkup() ? Value::markup(std::move(ch)) : Value(std::move(ch));
            }
            const auto& items = obj.isIterator() ? obj.iteratorObj().items : obj.items();
            const auto n = static_cast<int64_t>(items.size());
            if (i < 0) i += n;
            if (i < 0 || i >= n) return std::nullopt;
            return items[static_cast<size_t>(i)];
        }
        default: return std::nullopt;
    }
}

// Python's slice.indices(): clamps start/stop for a sequence of length n.
void sliceIndices(int64_t n, const Value& start, const Value& stop, int64_t step, int64_t& lo, int64_t& hi) {
    auto clamp = [&](const Value& v, int64_t dflt) {
        if (v.isNone()) return dflt;
        int64_t i = v.asInt();
        if (i < 0) {
            i += n;
            if (i < 0) i = step < 0 ? -1 : 0;
        } else if (i >= n) {
            i = step < 0 ? n - 1 : n;
        }
        return i;
    };
    lo = clamp(start, step < 0 ? n - 1 : 0);
    hi = clamp(stop, step < 0 ? -1 : n);
}

}  // namespace

Value getAttr(const Value& obj, std::string_view name) {
    if (obj.isUndefined()) operators::failUndefined(obj);
    if (auto v = pythonAttribute(obj, name)) return *v;
    if (obj.isDict()) {
        // The common case (message.role): no key value needs to be built.
        if (const Value* v = obj.dictObj().findStr(name)) return *v;
    }
    Value key{std::string(name)};
    if (auto v = pythonItem(obj, key)) return *v;
    return missing(obj, key);
}

Value attributeOnly(const Value& obj, std::string_view name) {
    if (obj.isUndefined()) operators::failUndefined(obj);
    if (auto v = pythonAttribute(obj, name)) return *v;
    return missing(obj, Value(std::string(name)));
}

Value getItem(const Value& obj, const Value& key) {
    if (obj.isUndefined()) operators::failUndefined(obj);
    if (auto v = pythonItem(obj, key)) return *v;
    if (key.isString()) {
        if (auto v = pythonAttribute(obj, key.str())) return *v;
    }
    return missing(obj, key);
}

Value slice(const Value& obj, const Value& start, const Value& stop, const Value& step) {
    if (obj.isUndefined()) operators::failUndefined(obj);
    auto isIndex = [](const Value& v) { return v.isNone() || v.isInt() || v.isBool(); };
    const bool sliceable = obj.isString() || obj.isListOrTuple() ||
                           (obj.isIterator() && obj.iteratorObj().kind == IteratorObject::Kind::Range);
    if (!sliceable || !isIndex(start) || !isIndex(stop) || !isIndex(step))
        return Value::undefined(obj.typeName() + " object has no element slice");
    const int64_t st = step.isNone() ? 1 : step.asInt();
    if (st == 0) fail(JinjaError::Kind::Value, "slice step cannot be zero");
    if (obj.isString()) {
        const std::string& s = obj.str();
        std::string out;
        if (utf8::isAscii(s)) {
            int64_t lo, hi;
            sliceIndices(static_cast<int64_t>(s.size()), start, stop, st, lo, hi);
            for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) out.push_back(s[static_cast<size_t>(i)]);
        } else {
            const auto cps = utf8::decode(s);
            int64_t lo, hi;
            sliceIndices(static_cast<int64_t>(cps.size()), start, stop, st, lo, hi);
            for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) utf8::append(out, cps[static_cast<size_t>(i)]);
        }
        return obj.isMarkup() ? Value::markup(std::move(out)) : Value(std::move(out));
    }
    const auto& items = obj.isIterator() ? obj.iteratorObj().items : obj.items();
    int64_t lo, hi;
    sliceIndices(static_cast<int64_t>(items.size()), start, stop, st, lo, hi);
    std::vector<Value> out;
    for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) out.push_back(items[static_cast<size_t>(i)]);
    if (obj.isTuple()) return Value::tuple(std::move(out));
    if (obj.isIterator()) {
        // A slice of a range is a range; its values are all a template can observe.
        auto r = std::make_shared<IteratorObject>();
        r->kind = IteratorObject::Kind::Range;
        r->items = std::move(out);
        r->rangeStart = r->items.empty() ? 0 : r->items.front().asInt();
        r->rangeStop = r->items.empty() ? 0 : r->items.back().asInt() + st;
        r->rangeStep = st;
        return Value::iterator(std::move(r));
    }
    return Value::list(std::move(out));
}

}  // namespace hearth::chat::sandbox
