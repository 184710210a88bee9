#include "tokenizer/RegexDialect.h"

namespace hearth {
namespace {

// Class members (without brackets) for each escape, per dialect.
struct Members {
    const char* space;
    const char* digit;  // nullptr: keep the escape (PCRE2's UCP meaning is the right one)
    const char* word;
};
constexpr Members kPython{R"(\p{White_Space})", nullptr, nullptr};
constexpr Members kJavaScript{R"(\t-\r\p{Zs}\x{2028}\x{2029}\x{FEFF})", "0-9", "A-Za-z0-9_"};

void replaceAllIn(std::string& s, std::string_view from, std::string_view to) {
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
}

}  // namespace

std::string RegexDialects::toPcre(std::string_view pattern, RegexDialect dialect) {
    std::string src(pattern);
    const Members& m = dialect == RegexDialect::Python ? kPython : kJavaScript;
    if (dialect == RegexDialect::JavaScript) {
        replaceAllIn(src, "(?i:'s|'t|'re|'ve|'m|'ll|'d)", "(?:'([sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))");
    }
    std::string out;
    out.reserve(src.size() + 32);
    bool inClass = false;
    for (size_t i = 0; i < src.size(); ++i) {
        const char c = src[i];
        if (c != '\\' || i + 1 >= src.size()) {
            if (c == '[' && !inClass) {
                inClass = true;
                out += c;
                if (i + 1 < src.size() && src[i + 1] == '^') out += src[++i];
                continue;
            }
            if (c == ']' && inClass) inClass = false;
            out += c;
            continue;
        }
        const char e = src[++i];
        auto put = [&](const char* members, bool negated) {
            if (inClass) {
                if (negated) out += std::string("\\") + e;  // cannot negate inside a class: keep PCRE's
                else out += members;
            } else {
                out += negated ? "[^" : "[";
                out += members;
                out += ']';
            }
        };
        if ((e == 's' || e == 'S')) put(m.space, e == 'S');
        else if ((e == 'd' || e == 'D') && m.digit) put(m.digit, e == 'D');
        else if ((e == 'w' || e == 'W') && m.word) put(m.word, e == 'W');
        else if (dialect == RegexDialect::JavaScript && (e == '#' || e == '&' || e == '~')) out += e;
        else if (dialect == RegexDialect::JavaScript && e == 'u' && i + 4 < src.size() && src[i + 1] != '{') {
            out += "\\x{" + src.substr(i + 1, 4) + "}";  // \uXXXX
            i += 4;
        } else if (dialect == RegexDialect::JavaScript && e == 'u' && i + 1 < src.size() && src[i + 1] == '{') {
            out += "\\x";  // \u{X...} -> \x{X...}
        } else {
            out += '\\';
            out += e;
        }
    }
    return out;
}

}  // namespace hearth
