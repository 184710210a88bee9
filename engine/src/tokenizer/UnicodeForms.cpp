#include "tokenizer/UnicodeForms.h"

#ifdef HEARTH_HAVE_ICU
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/ustring.h>

#include <vector>
#endif

namespace hearth {

static std::string asciiLowercase(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

#ifdef HEARTH_HAVE_ICU
bool UnicodeForms::available() { return true; }

std::string UnicodeForms::normalize(std::string_view text, UnicodeForm form) {
    // ASCII is invariant under every form; most text takes this path.
    bool ascii = true;
    for (char c : text) ascii &= static_cast<unsigned char>(c) < 0x80;
    if (ascii || text.size() > static_cast<size_t>(INT32_MAX / 4)) return std::string(text);

    UErrorCode err = U_ZERO_ERROR;
    const UNormalizer2* n = nullptr;
    switch (form) {
    case UnicodeForm::NFC: n = unorm2_getNFCInstance(&err); break;
    case UnicodeForm::NFD: n = unorm2_getNFDInstance(&err); break;
    case UnicodeForm::NFKC: n = unorm2_getNFKCInstance(&err); break;
    case UnicodeForm::NFKD: n = unorm2_getNFKDInstance(&err); break;
    }
    if (U_FAILURE(err)) return std::string(text);

    std::vector<UChar> u16(text.size() + 1);
    int32_t len16 = 0;
    u_strFromUTF8(u16.data(), static_cast<int32_t>(u16.size()), &len16, text.data(), static_cast<int32_t>(text.size()),
                  &err);
    if (U_FAILURE(err)) return std::string(text);
    if (unorm2_isNormalized(n, u16.data(), len16, &err) && U_SUCCESS(err)) return std::string(text);
    err = U_ZERO_ERROR;

    // Decompositions can grow text (by at most a factor of 18 for the worst characters).
    std::vector<UChar> out(static_cast<size_t>(len16) * 4 + 16);
    int32_t outLen = unorm2_normalize(n, u16.data(), len16, out.data(), static_cast<int32_t>(out.size()), &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
        err = U_ZERO_ERROR;
        out.resize(static_cast<size_t>(outLen) + 1);
        outLen = unorm2_normalize(n, u16.data(), len16, out.data(), static_cast<int32_t>(out.size()), &err);
    }
    if (U_FAILURE(err)) return std::string(text);

    std::string result(static_cast<size_t>(outLen) * 3 + 1, '\0');
    int32_t len8 = 0;
    u_strToUTF8(result.data(), static_cast<int32_t>(result.size()), &len8, out.data(), outLen, &err);
    if (U_FAILURE(err)) return std::string(text);
    result.resize(static_cast<size_t>(len8));
    return result;
}
std::string UnicodeForms::lowercase(std::string_view text) {
    bool ascii = true;
    for (char c : text) ascii &= static_cast<unsigned char>(c) < 0x80;
    if (ascii || text.size() > static_cast<size_t>(INT32_MAX / 4)) return asciiLowercase(text);
    UErrorCode err = U_ZERO_ERROR;
    std::vector<UChar> u16(text.size() + 1);
    int32_t len16 = 0;
    u_strFromUTF8(u16.data(), static_cast<int32_t>(u16.size()), &len16, text.data(), static_cast<int32_t>(text.size()), &err);
    if (U_FAILURE(err)) return asciiLowercase(text);
    std::vector<UChar> out(static_cast<size_t>(len16) * 3 + 16);
    const int32_t outLen = u_strToLower(out.data(), static_cast<int32_t>(out.size()), u16.data(), len16, "", &err);
    if (U_FAILURE(err)) return asciiLowercase(text);
    std::string result(static_cast<size_t>(outLen) * 3 + 1, '\0');
    int32_t len8 = 0;
    u_strToUTF8(result.data(), static_cast<int32_t>(result.size()), &len8, out.data(), outLen, &err);
    if (U_FAILURE(err)) return asciiLowercase(text);
    result.resize(static_cast<size_t>(len8));
    return result;
}
#else
bool UnicodeForms::available() { return false; }
std::string UnicodeForms::lowercase(std::string_view text) { return asciiLowercase(text); }
std::string UnicodeForms::normalize(std::string_view text, UnicodeForm) { return std::string(text); }
#endif

}  // namespace hearth
