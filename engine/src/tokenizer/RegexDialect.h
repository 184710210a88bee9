#pragma once
// Rewrites a tokenizer regex so PCRE2 (UTF + UCP) matches what the regex engine it was written
// for matches. Character classes differ between engines even where the syntax agrees:
//   Python - Hugging Face tokenizers (Oniguruma) and llama.cpp's references: \s is the Unicode
//            White_Space property (PCRE2's \s would add U+180E).
//   JavaScript - transformers.js: \s is JS whitespace (Zs, TAB..CR, U+2028/9, U+FEFF; not
//            U+0085), \d and \w are ASCII, `(?i:...)` contractions are rewritten to explicit
//            letter classes and stray escapes of # & ~ are dropped, as transformers.js does.

#include <string>
#include <string_view>

namespace hearth {

enum class RegexDialect { Python, JavaScript };

class RegexDialects {
public:
    static std::string toPcre(std::string_view pattern, RegexDialect dialect);
};

}  // namespace hearth
