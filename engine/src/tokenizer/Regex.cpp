#include "tokenizer/Regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tokenizer/Utf8.h"

namespace hearth {
namespace {

// Per-thread match state. A JIT stack larger than the default lets long runs (a megabyte of
// spaces) match without falling back to the interpreter.
struct ThreadMatchState {
    pcre2_match_data* data = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* jitStack = nullptr;
    ThreadMatchState() {
        data = pcre2_match_data_create(4, nullptr);
        context = pcre2_match_context_create(nullptr);
        jitStack = pcre2_jit_stack_create(64 * 1024, 8 * 1024 * 1024, nullptr);
        if (context && jitStack) pcre2_jit_stack_assign(context, nullptr, jitStack);
    }
    ~ThreadMatchState() {
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
        pcre2_match_data_free(data);
    }
};

ThreadMatchState& matchState() {
    thread_local ThreadMatchState s;
    return s;
}

}  // namespace

Result<std::shared_ptr<const Regex>> Regex::compile(std::string_view pattern) {
    int err = 0;
    PCRE2_SIZE errOffset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                     PCRE2_UTF | PCRE2_UCP, &err, &errOffset, nullptr);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        return makeError(ErrorCode::TokenizerError, "bad pre-tokenizer regex at offset " + std::to_string(errOffset) +
                                                        ": " + reinterpret_cast<const char*>(msg) + " in /" +
                                                        std::string(pattern) + "/");
    }
    std::shared_ptr<Regex> re(new Regex());
    re->pattern_ = std::string(pattern);
    re->code_ = code;
    re->jit_ = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    return std::shared_ptr<const Regex>(std::move(re));
}

Regex::~Regex() { pcre2_code_free(static_cast<pcre2_code*>(code_)); }

void Regex::findAll(std::string_view text, std::vector<Span>& out) const {
    auto* code = static_cast<pcre2_code*>(code_);
    ThreadMatchState& st = matchState();
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    size_t pos = 0;
    while (pos < text.size()) {
        int rc = pcre2_match(code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK, st.data, st.context);
        if (rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
            rc == PCRE2_ERROR_HEAPLIMIT) {
            rc = pcre2_match(code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, st.data, nullptr);
        }
        if (rc < 0) break;  // no further match (or an engine limit: the rest stays unmatched)
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(st.data);
        const size_t b = ov[0], e = ov[1];
        if (e > b) {
            out.emplace_back(static_cast<uint32_t>(b), static_cast<uint32_t>(e));
            pos = e;
        } else {
            // Empty match: step over one character so the scan always advances.
            uint32_t cp = 0;
            const size_t n = utf8::decode(text, b, cp);
            pos = b + (n ? n : 1);
        }
    }
}

}  // namespace hearth
