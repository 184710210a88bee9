#include "chat/Globals.h"

#include <ctime>

#include "chat/BuiltinFunction.h"
#include "chat/Interpreter.h"
#include "chat/JinjaError.h"

namespace hearth::chat::globals {
namespace {

constexpr int64_t kMaxRange = 100000;  // jinja2's sandbox refuses longer ranges

int64_t intArg(const Value& v) {
    if (!v.isInt() && !v.isBool()) failType("'" + v.typeName() + "' object cannot be interpreted as an integer");
    return v.asInt();
}

Value range(Interpreter&, CallArgs& a) {
    if (!a.kwargs.empty()) failType("range() takes no keyword arguments");
    if (a.args.empty() || a.args.size() > 3) failType("range expected 1 to 3 arguments, got " + std::to_string(a.args.size()));
    int64_t start = 0, stop, step = 1;
    if (a.args.size() == 1) {
        stop = intArg(a.args[0]);
    } else {
        start = intArg(a.args[0]);
        stop = intArg(a.args[1]);
        if (a.args.size() == 3) step = intArg(a.args[2]);
    }
    if (step == 0) fail(JinjaError::Kind::Value, "range() arg 3 must not be zero");
    const double count = step > 0 ? (static_cast<double>(stop) - start) / step : (static_cast<double>(start) - stop) / -step;
    if (count > kMaxRange)
        fail(JinjaError::Kind::Arithmetic, "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
    auto it = std::make_shared<IteratorObject>();
    it->kind = IteratorObject::Kind::Range;
    it->rangeStart = start;
    it->rangeStop = stop;
    it->rangeStep = step;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) it->items.emplace_back(i);
    return Value::iterator(std::move(it));
}

// dict(mapping_or_pairs, **kwargs), also the body of namespace().
std::shared_ptr<DictObject> buildDict(const CallArgs& a, const char* name) {
    auto d = std::make_shared<DictObject>();
    if (a.args.size() > 1) failType(std::string(name) + " expected at most 1 argument, got " + std::to_string(a.args.size()));
    if (!a.args.empty()) {
        const Value& src = a.args[0];
        if (src.isDict() || src.isNamespace()) {
            d->entries = src.dictObj().entries;
        } else {
            size_t i = 0;
            for (const auto& pair : src.iterate()) {
                const auto kv = pair.iterate();
                if (kv.size() != 2)
                    fail(JinjaError::Kind::Value, "dictionary update sequence element #" + std::to_string(i) + " has length " +
                                                      std::to_string(kv.size()) + "; 2 is required");
                d->set(kv[0], kv[1]);
                ++i;
            }
        }
    }
    for (const auto& [k, v] : a.kwargs) d->set(Value(k), v);
    return d;
}

std::string strftime(const std::tm& tm, const std::string& format) {
    // datetime.strftime handles these itself: naive times have no zone; there are no microseconds.
    std::string fmt;
    for (size_t i = 0; i < format.size(); ++i) {
        if (format[i] == '%' && i + 1 < format.size()) {
            const char c = format[i + 1];
            if (c == 'z' || c == 'Z') {
                ++i;
                continue;
            }
            if (c == 'f') {
                fmt += "000000";
                ++i;
                continue;
            }
            fmt += format.substr(i, 2);
            ++i;
            continue;
        }
        fmt.push_back(format[i]);
    }
    if (fmt.empty()) return "";
    // A marker keeps an empty expansion apart from a failed one.
    fmt += '\x01';
    std::string buf(fmt.size() * 4 + 64, '\0');
    for (int attempt = 0; attempt < 8; ++attempt) {
        const size_t n = std::strftime(buf.data(), buf.size(), fmt.c_str(), &tm);
        if (n > 0) return buf.substr(0, n - 1);
        buf.resize(buf.size() * 4);
    }
    fail(JinjaError::Kind::Value, "strftime format produced too much text");
}

struct CyclerState {
    std::vector<Value> items;
    size_t pos = 0;
};

Value cycler(Interpreter& in, CallArgs& a) {
    if (a.args.empty()) fail(JinjaError::Kind::Runtime, "at least one item has to be provided");
    auto state = std::make_shared<CyclerState>();
    state->items = a.args;
    auto attrs = std::make_shared<DictObject>();
    in.trackNamespace(attrs);
    attrs->set(Value("next"), makeBuiltin("next", [state](Interpreter&, CallArgs&) {
        Value v = state->items[state->pos];
        state->pos = (state->pos + 1) % state->items.size();
        return v;
    }));
    attrs->set(Value("reset"), makeBuiltin("reset", [state](Interpreter&, CallArgs&) {
        state->pos = 0;
        return Value::none();
    }));
    // `current` is a property in jinja2; a template reads it after next() calls, which this
    // snapshot cannot follow, so it is refused rather than answered wrongly.
    attrs->set(Value("current"), makeBuiltin("current", [](Interpreter&, CallArgs&) -> Value {
        failUnsupported("cycler.current");
    }));
    return Value::ns(attrs);
}

Value joiner(Interpreter&, CallArgs& a) {
    auto b = bindArgs(a, "joiner", {"sep"});
    const std::string sep = b[0] ? b[0]->toStr() : ", ";
    auto used = std::make_shared<bool>(false);
    return makeBuiltin("joiner", [sep, used](Interpreter&, CallArgs&) {
        if (!*used) {
            *used = true;
            return Value("");
        }
        return Value(sep);
    });
}

}  // namespace

Value lookup(std::string_view name) {
    if (name == "range") return makeBuiltin("range", range);
    if (name == "dict") return makeBuiltin("dict", [](Interpreter&, CallArgs& a) { return Value::dict(buildDict(a, "dict")); });
    if (name == "namespace")
        return makeBuiltin("namespace", [](Interpreter& in, CallArgs& a) {
            auto attrs = buildDict(a, "namespace");
            in.trackNamespace(attrs);
            return Value::ns(std::move(attrs));
        });
    if (name == "cycler") return makeBuiltin("cycler", cycler);
    if (name == "joiner") return makeBuiltin("joiner", joiner);
    if (name == "lipsum")
        return makeBuiltin("lipsum", [](Interpreter&, CallArgs&) -> Value { failUnsupported("lipsum() (random text)"); });
    if (name == "raise_exception") {
        return makeBuiltin("raise_exception", [](Interpreter&, CallArgs& a) -> Value {
            std::string message = a.args.empty() ? "" : a.args[0].toStr();
            fail(JinjaError::Kind::Raised, std::move(message));
        });
    }
    if (name == "strftime_now") {
        return makeBuiltin("strftime_now", [](Interpreter& in, CallArgs& a) {
            if (a.args.size() != 1 || !a.args[0].isString()) failType("strftime_now(format) takes one string");
            return Value(strftime(in.now(), a.args[0].str()));
        });
    }
    return Value();
}

}  // namespace hearth::chat::globals
