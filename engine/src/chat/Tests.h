#pragma once
// jinja2's builtin tests (`x is defined`, `x is string`, ...).

#include <string>

#include "chat/CallArgs.h"
#include "chat/Value.h"

namespace hearth::chat {
class Interpreter;
}

namespace hearth::chat::tests {

bool apply(Interpreter& in, const std::string& name, const Value& input, CallArgs& args);

}  // namespace hearth::chat::tests
