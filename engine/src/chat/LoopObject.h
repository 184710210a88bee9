#pragma once
// The `loop` variable of a for loop (jinja2's LoopContext): index, index0, revindex, revindex0,
// first, last, length, depth, depth0, previtem, nextitem, cycle(...), changed(...).
//
// Invariants: index0 < items.size() while the body runs; items are the (already filtered)
// values the loop iterates, so length and nextitem are known up front; depth0 counts the
// recursive loop() calls above this one (0 for every ordinary loop, nested or not).

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "chat/CallArgs.h"
#include "chat/Value.h"

namespace hearth::chat {

struct LoopObject final : HeapObject {
    std::vector<Value> items;
    size_t index0 = 0;
    int depth0 = 0;
    std::optional<Value> lastChanged;  // what changed() saw last
    // Set for `for ... recursive` loops: loop(children) renders the loop again over children.
    std::function<Value(CallArgs&)> recurse;

    // The attribute's value; nullopt when LoopContext has no such attribute.
    std::optional<Value> attribute(std::string_view name, const std::shared_ptr<LoopObject>& self) const;
};

}  // namespace hearth::chat
