#pragma once
// A variable scope of a render: the template's top level, one for-loop iteration, a macro call,
// a block set/filter/with/generation body. Lookups walk the parent chain; assignments write here.
// This is jinja2's observable scoping: a {% set %} inside a loop body or macro is local to it and
// starts afresh each iteration, while {% if %} bodies share their enclosing scope.
//
// Invariants: each symbol appears at most once in vars; parents outlive children (held by
// shared_ptr, since macros keep the scope they were defined in).

#include <memory>
#include <utility>
#include <vector>

#include "chat/Value.h"

namespace hearth::chat {

struct Scope {
    explicit Scope(std::shared_ptr<Scope> p = nullptr) : parent(std::move(p)) {}

    std::shared_ptr<Scope> parent;
    std::vector<std::pair<int, Value>> vars;

    const Value* find(int sym) const {
        for (const Scope* s = this; s; s = s->parent.get())
            for (const auto& [k, v] : s->vars)
                if (k == sym) return &v;
        return nullptr;
    }

    void set(int sym, Value v) {
        for (auto& [k, old] : vars) {
            if (k == sym) {
                old = std::move(v);
                return;
            }
        }
        vars.emplace_back(sym, std::move(v));
    }
};

using ScopePtr = std::shared_ptr<Scope>;

}  // namespace hearth::chat
