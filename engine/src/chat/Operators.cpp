#include "chat/Operators.h"

#include <cmath>

#include "chat/JinjaError.h"
#include "chat/Interpreter.h"
#include "chat/PyFormat.h"

namespace hearth::chat::operators {
namespace {

const char* opSymbol(BinaryExpr::Op op) {
    switch (op) {
        case BinaryExpr::Op::Add: return "+";
        case BinaryExpr::Op::Sub: return "-";
        case BinaryExpr::Op::Mul: return "*";
        case BinaryExpr::Op::Div: return "/";
        case BinaryExpr::Op::FloorDiv: return "//";
        case BinaryExpr::Op::Mod: return "%";
        case BinaryExpr::Op::Pow: return "**";
        default: return "?";
    }
}

[[noreturn]] void failOperands(BinaryExpr::Op op, const Value& a, const Value& b) {
    failType(std::string("unsupported operand type(s) for ") + opSymbol(op) + ": '" + a.typeName() + "' and '" +
             b.typeName() + "'");
}

[[noreturn]] void failOverflow() {
    fail(JinjaError::Kind::Arithmetic, "integer overflow (this interpreter's integers are 64-bit)");
}

Value repeat(const Value& seq, int64_t times) {
    if (times <= 0) return seq.isString() ? (seq.isMarkup() ? Value::markup("") : Value("")) : (seq.isTuple() ? Value::tuple({}) : Value::list());
    if (seq.isString()) {
        const std::string& s = seq.str();
        if (!s.empty() && static_cast<uint64_t>(times) > Interpreter::kMaxOutputBytes / s.size())
            fail(JinjaError::Kind::Runtime, "string repetition too large");
        std::string out;
        out.reserve(s.size() * static_cast<size_t>(times));
        for (int64_t i = 0; i < times; ++i) out += s;
        return seq.isMarkup() ? Value::markup(std::move(out)) : Value(std::move(out));
    }
    const auto& items = seq.items();
    if (!items.empty() && static_cast<uint64_t>(times) > 10'000'000ull / items.size())
        fail(JinjaError::Kind::Runtime, "list repetition too large");
    std::vector<Value> out;
    for (int64_t i = 0; i < times; ++i) out.insert(out.end(), items.begin(), items.end());
    return seq.isTuple() ? Value::tuple(std::move(out)) : Value::list(std::move(out));
}

double floatMod(double a, double b) {
    double r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

Value add(const Value& a, const Value& b) {
    if (a.isString() && b.isString()) {
        // Markup escapes the plain operand (Markup.__add__ / __radd__).
        if (a.isMarkup() && !b.isMarkup()) return Value::markup(a.str() + escapeMarkup(b.str()));
        if (b.isMarkup() && !a.isMarkup()) return Value::markup(escapeMarkup(a.str()) + b.str());
        if (a.isMarkup()) return Value::markup(a.str() + b.str());
        return Value(a.str() + b.str());
    }
    if ((a.isList() && b.isList()) || (a.isTuple() && b.isTuple())) {
        std::vector<Value> out = a.items();
        out.insert(out.end(), b.items().begin(), b.items().end());
        return a.isTuple() ? Value::tuple(std::move(out)) : Value::list(std::move(out));
    }
    if (a.isString()) failType("can only concatenate str (not \"" + b.typeName() + "\") to str");
    if (a.isList()) failType("can only concatenate list (not \"" + b.typeName() + "\") to list");
    if (a.isTuple()) failType("can only concatenate tuple (not \"" + b.typeName() + "\") to tuple");
    failOperands(BinaryExpr::Op::Add, a, b);
}

}  // namespace

void failUndefined(const Value& u) {
    fail(u.undefinedIsSecurity() ? JinjaError::Kind::Security : JinjaError::Kind::Undefined, u.undefinedMessage());
}

Value binary(BinaryExpr::Op op, const Value& a, const Value& b) {
    if (a.isUndefined()) failUndefined(a);
    if (b.isUndefined()) failUndefined(b);
    const bool numbers = a.isNumber() && b.isNumber();
    const bool floats = numbers && (a.isFloat() || b.isFloat());
    switch (op) {
        case BinaryExpr::Op::Add:
            if (!numbers) return add(a, b);
            if (floats) return Value(a.asFloat() + b.asFloat());
            {
                int64_t r;
                if (__builtin_add_overflow(a.asInt(), b.asInt(), &r)) failOverflow();
                return Value(r);
            }
        case BinaryExpr::Op::Sub:
            if (!numbers) failOperands(op, a, b);
            if (floats) return Value(a.asFloat() - b.asFloat());
            {
                int64_t r;
                if (__builtin_sub_overflow(a.asInt(), b.asInt(), &r)) failOverflow();
                return Value(r);
            }
        case BinaryExpr::Op::Mul:
            if (numbers) {
                if (floats) return Value(a.asFloat() * b.asFloat());
                int64_t r;
                if (__builtin_mul_overflow(a.asInt(), b.asInt(), &r)) failOverflow();
                return Value(r);
            }
            if ((a.isString() || a.isListOrTuple()) && (b.isInt() || b.isBool())) return repeat(a, b.asInt());
            if ((b.isString() || b.isListOrTuple()) && (a.isInt() || a.isBool())) return repeat(b, a.asInt());
            if (a.isString() || b.isString()) failType("can't multiply sequence by non-int of type '" + (a.isString() ? b : a).typeName() + "'");
            failOperands(op, a, b);
        case BinaryExpr::Op::Div:
            if (!numbers) failOperands(op, a, b);
            if (b.asFloat() == 0) fail(JinjaError::Kind::Arithmetic, "division by zero");
            return Value(a.asFloat() / b.asFloat());
        case BinaryExpr::Op::FloorDiv:
            if (!numbers) failOperands(op, a, b);
            if (floats) {
                if (b.asFloat() == 0) fail(JinjaError::Kind::Arithmetic, "float floor division by zero");
                return Value(std::floor(a.asFloat() / b.asFloat()));
            } else {
                const int64_t x = a.asInt(), y = b.asInt();
                if (y == 0) fail(JinjaError::Kind::Arithmetic, "integer division or modulo by zero");
                if (x == INT64_MIN && y == -1) failOverflow();
                int64_t q = x / y;
                if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
                return Value(q);
            }
        case BinaryExpr::Op::Mod:
            if (a.isString()) {
                if (a.isMarkup()) {
                    // Markup.__mod__ escapes string arguments.
                    auto escapeArg = [](const Value& v) {
                        return v.isString() && !v.isMarkup() ? Value::markup(escapeMarkup(v.str())) : v;
                    };
                    Value args = b;
                    if (b.isTuple()) {
                        std::vector<Value> items;
                        for (const auto& v : b.items()) items.push_back(escapeArg(v));
                        args = Value::tuple(std::move(items));
                    } else {
                        args = escapeArg(b);
                    }
                    return Value::markup(pyformat::percentFormat(a.str(), args));
                }
                return Value(pyformat::percentFormat(a.str(), b));
            }
            if (!numbers) failOperands(op, a, b);
            if (floats) {
                if (b.asFloat() == 0) fail(JinjaError::Kind::Arithmetic, "float modulo");
                return Value(floatMod(a.asFloat(), b.asFloat()));
            } else {
                const int64_t x = a.asInt(), y = b.asInt();
                if (y == 0) fail(JinjaError::Kind::Arithmetic, "integer division or modulo by zero");
                if (y == -1) return Value(static_cast<int64_t>(0));
                int64_t r = x % y;
                if (r != 0 && ((r < 0) != (y < 0))) r += y;
                return Value(r);
            }
        case BinaryExpr::Op::Pow:
            if (!numbers) failOperands(op, a, b);
            if (floats || b.asInt() < 0) {
                if (a.asFloat() == 0 && b.asFloat() < 0) fail(JinjaError::Kind::Arithmetic, "0.0 cannot be raised to a negative power");
                return Value(std::pow(a.asFloat(), b.asFloat()));
            } else {
                int64_t base = a.asInt(), e = b.asInt(), r = 1;
                while (e > 0) {
                    if (e & 1)
                        if (__builtin_mul_overflow(r, base, &r)) failOverflow();
                    e >>= 1;
                    if (e && __builtin_mul_overflow(base, base, &base)) failOverflow();
                }
                return Value(r);
            }
        default: break;
    }
    failUnsupported("operator");
}

Value unary(UnaryExpr::Op op, const Value& v) {
    if (v.isUndefined()) failUndefined(v);
    if (!v.isNumber())
        failType(std::string("bad operand type for unary ") + (op == UnaryExpr::Op::Neg ? "-" : "+") + ": '" + v.typeName() + "'");
    if (op == UnaryExpr::Op::Pos) return v.isBool() ? Value(v.asInt()) : v;
    if (v.isFloat()) return Value(-v.asFloat());
    if (v.asInt() == INT64_MIN) failOverflow();
    return Value(-v.asInt());
}

bool contains(const Value& container, const Value& item) {
    switch (container.type()) {
        case ValueType::String:
            if (!item.isString()) failType("'in <string>' requires string as left operand, not " + item.typeName());
            return container.str().find(item.str()) != std::string::npos;
        case ValueType::List:
        case ValueType::Tuple:
            for (const auto& v : container.items())
                if (v.equals(item)) return true;
            return false;
        case ValueType::Dict:
            if (!item.isHashable()) failType("unhashable type: '" + item.typeName() + "'");
            return container.dictObj().find(item) != nullptr;
        case ValueType::Undefined:
            return false;
        case ValueType::Iterator:
            for (const auto& v : container.iteratorObj().iterate())
                if (v.equals(item)) return true;
            return false;
        default:
            failType("argument of type '" + container.typeName() + "' is not iterable");
    }
}

}  // namespace hearth::chat::operators
