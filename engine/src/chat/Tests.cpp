#include "chat/Tests.h"

#include <unordered_map>

#include "chat/Interpreter.h"
#include "chat/JinjaError.h"
#include "chat/Operators.h"
#include "chat/Parser.h"
#include "chat/PyStr.h"

namespace hearth::chat::tests {
namespace {

const Value& argument(const CallArgs& a, const char* test) {
    if (a.args.size() + a.kwargs.size() != 1) failType(std::string(test) + "() takes exactly one argument");
    return a.args.empty() ? a.kwargs[0].second : a.args[0];
}

void noArguments(const CallArgs& a, const char* test) {
    if (!a.args.empty() || !a.kwargs.empty()) failType(std::string(test) + "() takes no arguments");
}

// value % by == expected, with Python's numeric equality (2.5 % 2 == 0.5 is neither 0 nor 1).
bool moduloIs(const Value& v, const Value& by, int64_t expected) {
    return operators::binary(BinaryExpr::Op::Mod, v, by).equals(Value(expected));
}

}  // namespace

bool apply(Interpreter& in, const std::string& name, const Value& v, CallArgs& a) {
    (void)in;
    const char* n = name.c_str();
    if (name == "defined") return noArguments(a, n), !v.isUndefined();
    if (name == "undefined") return noArguments(a, n), v.isUndefined();
    if (name == "none") return noArguments(a, n), v.isNone();
    if (name == "boolean") return noArguments(a, n), v.isBool();
    if (name == "false") return noArguments(a, n), v.isBool() && !v.asBool();
    if (name == "true") return noArguments(a, n), v.isBool() && v.asBool();
    if (name == "integer") return noArguments(a, n), v.isInt();
    if (name == "float") return noArguments(a, n), v.isFloat();
    if (name == "number") return noArguments(a, n), v.isNumber();
    if (name == "string") return noArguments(a, n), v.isString();
    if (name == "mapping") return noArguments(a, n), v.isDict();
    if (name == "escaped") return noArguments(a, n), v.isMarkup();
    if (name == "callable") return noArguments(a, n), v.isCallable() || v.isUndefined() || v.isLoop();
    if (name == "iterable") {
        noArguments(a, n);
        switch (v.type()) {
            case ValueType::Undefined: case ValueType::String: case ValueType::List: case ValueType::Tuple:
            case ValueType::Dict: case ValueType::Iterator: case ValueType::Loop: return true;
            default: return false;
        }
    }
    if (name == "sequence") {
        // Python: has len() and __getitem__.
        noArguments(a, n);
        switch (v.type()) {
            case ValueType::Undefined: case ValueType::String: case ValueType::List: case ValueType::Tuple:
            case ValueType::Dict: return true;
            case ValueType::Iterator: return v.iteratorObj().kind == IteratorObject::Kind::Range;
            default: return false;
        }
    }
    if (name == "odd" || name == "even") {
        noArguments(a, n);
        if (v.isUndefined()) operators::failUndefined(v);
        return moduloIs(v, Value(static_cast<int64_t>(2)), name == "odd" ? 1 : 0);
    }
    if (name == "divisibleby") return moduloIs(v, argument(a, n), 0);
    if (name == "lower") return noArguments(a, n), pystr::isLower(v.toStr());
    if (name == "upper") return noArguments(a, n), pystr::isUpper(v.toStr());
    if (name == "eq" || name == "equalto" || name == "==") return v.equals(argument(a, n));
    if (name == "ne" || name == "!=") return !v.equals(argument(a, n));
    if (name == "lt" || name == "lessthan" || name == "<") return compareValues(v, argument(a, n), "<") < 0;
    if (name == "le" || name == "<=") return compareValues(v, argument(a, n), "<=") <= 0;
    if (name == "gt" || name == "greaterthan" || name == ">") return compareValues(v, argument(a, n), ">") > 0;
    if (name == "ge" || name == ">=") return compareValues(v, argument(a, n), ">=") >= 0;
    if (name == "in") return operators::contains(argument(a, n), v);
    if (name == "sameas") {
        // Python identity: exact for None and bools; ints and strings only when the values match
        // (CPython shares small ints and interned strings; templates compare with none/true/false).
        const Value& o = argument(a, n);
        if (v.type() != o.type()) return false;
        if (v.isNone() || v.isUndefined()) return true;
        if (v.isBool()) return v.asBool() == o.asBool();
        if (v.object() || o.object()) return v.object() == o.object() || (v.isString() && v.str() == o.str());
        return v.equals(o);
    }
    if (name == "filter") return Parser::isJinjaFilter(v.toStr());
    if (name == "test") return Parser::isJinjaTest(v.toStr());
    failUnsupported("the '" + name + "' test");
}

}  // namespace hearth::chat::tests
