#pragma once
// Attribute and item access as jinja2's ImmutableSandboxedEnvironment does it: `a.b` tries the
// Python attribute first and then the item, `a[b]` the item first and then the attribute; a
// missing one is undefined; attributes that start with "_" or that would mutate a list or dict
// (append, pop, update, ...) are "unsafe": they resolve to an undefined value whose use raises
// SecurityError.
//
// The unsafe set follows jinja2 3.1.6 (list.pop and list.clear are unsafe; Debian's 3.1.2 still
// allowed them).

#include <cstdint>
#include <optional>
#include <string_view>

#include "chat/Value.h"

namespace hearth::chat::sandbox {

Value getAttr(const Value& obj, std::string_view name);
Value getItem(const Value& obj, const Value& key);
// getattr(obj, name) without the item fallback (jinja2's |attr filter).
Value attributeOnly(const Value& obj, std::string_view name);
// obj[start:stop:step] for str, list, tuple and range; other objects give undefined.
Value slice(const Value& obj, const Value& start, const Value& stop, const Value& step);

}  // namespace hearth::chat::sandbox
