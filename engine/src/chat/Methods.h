#pragma once
// The Python methods templates call on values: str (split, strip, startswith, format, ...), dict
// (items, keys, values, get, copy), list and tuple (index, count, copy). A method is looked up by
// attribute access and becomes a bound method value; calling it runs the method here.

#include <string>
#include <string_view>

#include "chat/CallArgs.h"
#include "chat/Value.h"

namespace hearth::chat {
class Interpreter;
}

namespace hearth::chat::methods {

enum class Lookup {
    Missing,      // the type has no such attribute
    Safe,         // a method the sandbox allows
    Unsafe,       // a method that would mutate the object (the sandbox refuses it)
    Unsupported,  // a real method this interpreter does not implement
};

Lookup find(const Value& self, std::string_view name);
// A bound method value for a Safe or Unsupported lookup (calling an unsupported one raises).
Value bind(const Value& self, std::string_view name);
Value call(Interpreter& in, const Value& self, const std::string& name, CallArgs& args);

}  // namespace hearth::chat::methods
