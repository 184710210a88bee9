#pragma once
// A compiled PCRE2 pattern (UTF + UCP, so \p{L}, \p{N}, \s, \w follow Unicode properties), JIT
// compiled when the platform allows. Immutable once compiled; findAll() may run from many
// threads at once (match data and JIT stacks are per thread).
//
// Input to findAll() must be valid UTF-8 (the tokenizer repairs text before it gets here).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hearth/result.h"

namespace hearth {

class Regex {
public:
    using Span = std::pair<uint32_t, uint32_t>;  // [begin, end) byte offsets

    static Result<std::shared_ptr<const Regex>> compile(std::string_view pattern);
    ~Regex();
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;

    // Non-overlapping, non-empty matches, left to right, appended to out.
    void findAll(std::string_view text, std::vector<Span>& out) const;
    const std::string& pattern() const { return pattern_; }

private:
    Regex() = default;
    std::string pattern_;
    void* code_ = nullptr;  // pcre2_code_8*
    bool jit_ = false;
};

}  // namespace hearth
