#pragma once
// jinja2's builtin filters (with transformers' tojson), applied with Python semantics. A filter
// jinja2 has but this interpreter does not implement raises Unsupported, naming it.

#include <string>

#include "chat/CallArgs.h"
#include "chat/Value.h"

namespace hearth::chat {
class Interpreter;
}

namespace hearth::chat::filters {

Value apply(Interpreter& in, const std::string& name, const Value& input, CallArgs& args);

// Helpers shared by the sequence filters and tests.
// jinja2's make_attrgetter: "a.b.0" looks up a, then b, then item 0, through the sandbox.
Value attributePath(const Value& item, const Value& attribute);
// The filters' case folding for sort keys (lower() for strings, the value itself otherwise).
Value foldCase(const Value& v, bool caseSensitive);

}  // namespace hearth::chat::filters
