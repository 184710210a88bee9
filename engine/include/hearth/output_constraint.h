#pragma once
// Checking a response_format constraint before submitting it, so that a server can answer a bad or
// unsupported schema with a 400 instead of a failed stream.
//
// Supported JSON Schema subset (constrained decoding guarantees the output parses and validates):
// type (a name or a list), enum, const, nullable; objects: properties, required,
// additionalProperties (bool or schema; absent = no extra keys when properties are listed, any
// keys otherwise); arrays: items, minItems, maxItems; strings: minLength, maxLength; anyOf / oneOf
// whose alternatives have different types; allOf with a single schema; local $ref (recursion
// included). Annotations (title, description, default, examples, format, ...) are ignored. Any other
// assertion (pattern, minimum, maximum, multipleOf, not, if/then/else, prefixItems, ...) is refused.
// Limits: 256 properties per object, 256 enum values, nesting 45 levels, numbers 32 characters
// (integers 20, exponents 2 digits); whitespace between tokens is one space or tab, or a newline
// followed by at most 20 spaces/tabs; nothing may follow the top-level value.

#include "hearth/engine.h"
#include "hearth/result.h"

namespace hearth {

// Ok for Kind::None and Kind::JsonObject; for Kind::JsonSchema, compiles the schema and returns
// InvalidArgument with a message naming what is wrong or unsupported.
Status validateOutputConstraint(const OutputConstraint& constraint);

}  // namespace hearth
