#include "chat/LoopObject.h"

#include "chat/BuiltinFunction.h"

namespace hearth::chat {

std::optional<Value> LoopObject::attribute(std::string_view name, const std::shared_ptr<LoopObject>& self) const {
    const auto n = static_cast<int64_t>(items.size());
    const auto i = static_cast<int64_t>(index0);
    if (name == "index") return Value(i + 1);
    if (name == "index0") return Value(i);
    if (name == "revindex") return Value(n - i);
    if (name == "revindex0") return Value(n - i - 1);
    if (name == "first") return Value(i == 0);
    if (name == "last") return Value(i == n - 1);
    if (name == "length") return Value(n);
    if (name == "depth") return Value(static_cast<int64_t>(depth0) + 1);
    if (name == "depth0") return Value(static_cast<int64_t>(depth0));
    if (name == "previtem") {
        if (i == 0) return Value::undefined("there is no previous item");
        return items[index0 - 1];
    }
    if (name == "nextitem") {
        if (i + 1 >= n) return Value::undefined("there is no next item");
        return items[index0 + 1];
    }
    if (name == "cycle") {
        return makeBuiltin("cycle", [self](Interpreter&, CallArgs& a) -> Value {
            if (a.args.empty()) failType("no items for cycling given");
            return a.args[self->index0 % a.args.size()];
        });
    }
    if (name == "changed") {
        return makeBuiltin("changed", [self](Interpreter&, CallArgs& a) -> Value {
            Value now = Value::tuple(a.args);
            if (!self->lastChanged || !self->lastChanged->equals(now)) {
                self->lastChanged = now;
                return Value(true);
            }
            return Value(false);
        });
    }
    return std::nullopt;
}

}  // namespace hearth::chat
