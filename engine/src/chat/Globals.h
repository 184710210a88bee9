#pragma once
// The global functions a template sees: jinja2's range, dict, namespace, cycler, joiner (lipsum
// is refused), and transformers' raise_exception(message) and strftime_now(format).

#include <string_view>

#include "chat/Value.h"

namespace hearth::chat::globals {

// The global's value, or a plain undefined when there is none of that name.
Value lookup(std::string_view name);

}  // namespace hearth::chat::globals
