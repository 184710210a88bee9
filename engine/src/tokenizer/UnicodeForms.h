#pragma once
// Unicode normalization forms (NFC, NFD, NFKC, NFKD) and lowercasing through ICU, when the build found it.
// Without ICU, available() is false and loaders that need a form refuse the tokenizer with a
// clear error instead of tokenizing differently from the reference.

#include <string>
#include <string_view>

namespace hearth {

enum class UnicodeForm { NFC, NFD, NFKC, NFKD };

class UnicodeForms {
public:
    static bool available();
    // Input must be valid UTF-8; returns the input unchanged when ICU is missing.
    static std::string normalize(std::string_view text, UnicodeForm form);
    // Full Unicode lowercase (root locale, final sigma handled); ASCII-only without ICU.
    static std::string lowercase(std::string_view text);
};

}  // namespace hearth
