#pragma once
// The filters over sequences and mappings (first, last, join, map, select*, reject*, sort, unique,
// dictsort, items, batch, slice, min, max, sum, reverse, list, length), split from Filters.cpp.
// Filters that are generators in jinja2 (map, select, items, unique, batch, ...) return single-use
// iterator values that compute their items when first iterated, as Python's generators do.

#include "chat/CallArgs.h"
#include "chat/Value.h"

namespace hearth::chat {
class Interpreter;
}

namespace hearth::chat::filters {

using FilterFn = Value (*)(Interpreter& in, const Value& input, CallArgs& args);

// nullptr when name is not one of these.
FilterFn findSequenceFilter(const std::string& name);

// Python's sorted()/min()/max() key order, stable; throws TypeError for unorderable keys.
void stableSortByKey(std::vector<Value>& items, const std::vector<Value>& keys, bool reverse);

}  // namespace hearth::chat::filters
