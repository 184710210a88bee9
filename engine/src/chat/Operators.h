#pragma once
// Python's operators on template values: arithmetic (+ - * / // % **, with int overflow checked),
// unary minus/plus, membership (`in`), including markupsafe.Markup's escaping of the other operand
// in `Markup + str` and `Markup % args`.

#include "chat/Ast.h"
#include "chat/Value.h"

namespace hearth::chat::operators {

Value binary(BinaryExpr::Op op, const Value& a, const Value& b);
Value unary(UnaryExpr::Op op, const Value& v);
// `item in container`.
bool contains(const Value& container, const Value& item);
// Throws the error jinja2 raises when an undefined value is used in an operation.
[[noreturn]] void failUndefined(const Value& undefined);

}  // namespace hearth::chat::operators
