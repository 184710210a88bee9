#pragma once
// The arguments of one call (function, macro, filter, test, method), and binding them to a
// Python-style signature.
//
// Invariants: keyword names are unique (the evaluator rejects duplicates before building this);
// positional arguments keep their order.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chat/JinjaError.h"
#include "chat/Value.h"

namespace hearth::chat {

struct CallArgs {
    std::vector<Value> args;
    std::vector<std::pair<std::string, Value>> kwargs;

    const Value* keyword(std::string_view name) const {
        for (const auto& [k, v] : kwargs)
            if (k == name) return &v;
        return nullptr;
    }
};

// Binds args to the parameter names of `function` (positional first, then by keyword), as Python
// does: too many positional arguments, an unknown keyword or a parameter given twice raise
// TypeError; so does a missing one among the first `required`. Unset parameters are nullopt.
inline std::vector<std::optional<Value>> bindArgs(const CallArgs& a, const char* function,
                                                  std::initializer_list<const char*> names, size_t required = 0) {
    std::vector<std::optional<Value>> out(names.size());
    if (a.args.size() > names.size())
        failType(std::string(function) + "() takes at most " + std::to_string(names.size()) + " positional argument(s) (" +
                 std::to_string(a.args.size()) + " given)");
    for (size_t i = 0; i < a.args.size(); ++i) out[i] = a.args[i];
    for (const auto& [k, v] : a.kwargs) {
        size_t i = 0;
        for (const char* n : names) {
            if (k == n) break;
            ++i;
        }
        if (i == names.size()) failType(std::string(function) + "() got an unexpected keyword argument '" + k + "'");
        if (out[i]) failType(std::string(function) + "() got multiple values for argument '" + k + "'");
        out[i] = v;
    }
    size_t i = 0;
    for (const char* n : names) {
        if (i < required && !out[i]) failType(std::string(function) + "() missing required argument '" + n + "'");
        ++i;
    }
    return out;
}

}  // namespace hearth::chat
