#include "chat/Utf8.h"

#include <clocale>
#include <cwctype>
#include <locale.h>

namespace hearth::chat::utf8 {
namespace {

constexpr char32_t kEscapeBase = 0xDC00;  // malformed byte b decodes as kEscapeBase + b

// Case mapping beyond ASCII comes from the C library's Unicode tables (C.UTF-8 locale), which
// hold the same simple mappings Python uses. Created once; never freed (process lifetime).
locale_t unicodeLocale() {
    static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
    return loc;
}

}  // namespace

char32_t next(std::string_view s, size_t& pos) {
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80) {
        ++pos;
        return b0;
    }
    int extra = 0;
    char32_t cp = 0;
    if ((b0 & 0xE0) == 0xC0) {
        extra = 1;
        cp = b0 & 0x1F;
    } else if ((b0 & 0xF0) == 0xE0) {
        extra = 2;
        cp = b0 & 0x0F;
    } else if ((b0 & 0xF8) == 0xF0) {
        extra = 3;
        cp = b0 & 0x07;
    } else {
        ++pos;
        return kEscapeBase + b0;
    }
    if (pos + extra >= s.size()) {
        ++pos;
        return kEscapeBase + b0;
    }
    for (int i = 1; i <= extra; ++i) {
        const auto b = static_cast<unsigned char>(s[pos + i]);
        if ((b & 0xC0) != 0x80) {
            ++pos;
            return kEscapeBase + b0;
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    // Reject overlong forms and surrogates, as a strict decoder does.
    static constexpr char32_t kMin[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        ++pos;
        return kEscapeBase + b0;
    }
    pos += extra + 1;
    return cp;
}

void append(std::string& out, char32_t cp) {
    if (cp >= kEscapeBase + 0x80 && cp <= kEscapeBase + 0xFF) {
        out.push_back(static_cast<char>(cp - kEscapeBase));
    } else if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::vector<char32_t> decode(std::string_view s) {
    std::vector<char32_t> out;
    out.reserve(s.size());
    size_t pos = 0;
    while (pos < s.size()) out.push_back(next(s, pos));
    return out;
}

std::string encode(const std::vector<char32_t>& cps) {
    std::string out;
    out.reserve(cps.size());
    for (char32_t c : cps) append(out, c);
    return out;
}

bool isAscii(std::string_view s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

size_t length(std::string_view s) {
    if (isAscii(s)) return s.size();
    size_t n = 0, pos = 0;
    while (pos < s.size()) {
        next(s, pos);
        ++n;
    }
    return n;
}

size_t byteOffset(std::string_view s, size_t index) {
    size_t pos = 0;
    for (size_t i = 0; i < index && pos < s.size(); ++i) next(s, pos);
    return pos;
}

bool isSpace(char32_t c) {
    switch (c) {
        case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D:
        case 0x1C: case 0x1D: case 0x1E: case 0x1F: case 0x20:
        case 0x85: case 0xA0: case 0x1680:
        case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
            return true;
        default:
            return c >= 0x2000 && c <= 0x200A;
    }
}

bool isLineBreak(char32_t c) {
    switch (c) {
        case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x1C: case 0x1D: case 0x1E:
        case 0x85: case 0x2028: case 0x2029:
            return true;
        default:
            return false;
    }
}

bool isAlpha(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (c >= kEscapeBase && c <= kEscapeBase + 0xFF) return false;
    return iswalpha_l(static_cast<wint_t>(c), unicodeLocale()) != 0;
}

bool isDigit(char32_t c) {
    if (c < 0x80) return c >= '0' && c <= '9';
    return iswdigit_l(static_cast<wint_t>(c), unicodeLocale()) != 0;
}

bool isWordChar(char32_t c) { return c == '_' || isAlpha(c) || isDigit(c); }

char32_t toUpper(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
    if (c >= kEscapeBase && c <= kEscapeBase + 0xFF) return c;
    return static_cast<char32_t>(towupper_l(static_cast<wint_t>(c), unicodeLocale()));
}

char32_t toLower(char32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    if (c >= kEscapeBase && c <= kEscapeBase + 0xFF) return c;
    return static_cast<char32_t>(towlower_l(static_cast<wint_t>(c), unicodeLocale()));
}

bool isUpper(char32_t c) { return toLower(c) != c; }
bool isLower(char32_t c) { return toUpper(c) != c || c == 0xDF; }
bool isCased(char32_t c) { return isUpper(c) || isLower(c); }

bool isPrintable(char32_t c) {
    if (c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD) return false;
    if (c >= kEscapeBase && c <= kEscapeBase + 0xFF) return false;
    if (c == 0x1680 || (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F)) return false;
    if ((c >= 0x205F && c <= 0x206F) || c == 0x3000 || c == 0xFEFF) return false;
    if ((c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000) return false;
    if (c == 0x061C || c == 0x180E || (c >= 0xD800 && c <= 0xDFFF)) return false;
    return true;
}

std::string upper(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    size_t pos = 0;
    while (pos < s.size()) {
        char32_t c = next(s, pos);
        if (c == 0xDF) {
            out += "SS";
            continue;
        }
        append(out, toUpper(c));
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    size_t pos = 0;
    while (pos < s.size()) append(out, toLower(next(s, pos)));
    return out;
}

}  // namespace hearth::chat::utf8
