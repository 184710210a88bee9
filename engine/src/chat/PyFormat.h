#pragma once
// Python's number and string formatting, as templates observe it: repr(float) (shortest digits
// that round-trip, "1.0", "1e+16"), printf-style `"%s" % x`, and str.format()'s mini-language.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "chat/Value.h"

namespace hearth::chat::pyformat {

// repr(float) / str(float).
std::string floatRepr(double v);
// Python's round(v, ndigits): correctly rounded, ties to even.
double roundTo(double v, int ndigits);

// `fmt % args`: args is a tuple (positional), a dict (%(name)s) or a single value.
std::string percentFormat(std::string_view fmt, const Value& args);

// Resolves a field's ".attr" / "[key]" parts through the sandbox, as jinja2's SandboxedFormatter.
using FieldLookup = std::function<Value(const Value& obj, const Value& key, bool isAttr)>;
// str.format(*args, **kwargs).
std::string braceFormat(std::string_view fmt, const std::vector<Value>& args,
                        const std::vector<std::pair<std::string, Value>>& kwargs, const FieldLookup& lookup);
// format(value, spec): the format-spec mini-language for str, int, float and bool.
std::string formatSpec(const Value& v, std::string_view spec);

}  // namespace hearth::chat::pyformat
