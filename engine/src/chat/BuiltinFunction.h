#pragma once
// A callable implemented in C++ (globals like range(), loop.cycle, bound helpers).
//
// Invariants: fn is never empty.

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "chat/CallArgs.h"
#include "chat/Value.h"

namespace hearth::chat {

struct BuiltinFunction final : CallableObject {
    using Fn = std::function<Value(Interpreter&, CallArgs&)>;
    BuiltinFunction(std::string n, Fn f) : functionName(std::move(n)), fn(std::move(f)) {}

    std::string name() const override { return functionName; }
    Value call(Interpreter& in, CallArgs& args) override { return fn(in, args); }

    std::string functionName;
    Fn fn;
};

inline Value makeBuiltin(std::string name, BuiltinFunction::Fn fn) {
    return Value::callable(std::make_shared<BuiltinFunction>(std::move(name), std::move(fn)));
}

}  // namespace hearth::chat
