#include "tokenizer/Utf8.h"

namespace hearth::utf8 {

size_t claimedLength(uint8_t lead) {
    if (lead < 0x80) return 1;
    if (lead < 0xC2) return 0;  // continuation byte or overlong 2-byte lead
    if (lead < 0xE0) return 2;
    if (lead < 0xF0) return 3;
    if (lead < 0xF5) return 4;
    return 0;
}

size_t decode(std::string_view s, size_t pos, uint32_t& cp) {
    if (pos >= s.size()) return 0;
    const auto b0 = static_cast<uint8_t>(s[pos]);
    const size_t n = claimedLength(b0);
    if (n == 0 || pos + n > s.size()) return 0;
    if (n == 1) {
        cp = b0;
        return 1;
    }
    uint32_t v = b0 & (0xFF >> (n + 1));
    for (size_t i = 1; i < n; ++i) {
        const auto b = static_cast<uint8_t>(s[pos + i]);
        if ((b & 0xC0) != 0x80) return 0;
        v = (v << 6) | (b & 0x3F);
    }
    // Reject overlong forms, surrogates and values past U+10FFFF.
    if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    cp = v;
    return n;
}

void append(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

bool isValid(std::string_view s) {
    size_t i = 0;
    uint32_t cp = 0;
    while (i < s.size()) {
        if (static_cast<uint8_t>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const size_t n = decode(s, i, cp);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

// Length of the invalid run at pos: the lead byte plus the continuation bytes that could still
// have belonged to it (the "maximal subpart" rule), at least one byte.
static size_t invalidRun(std::string_view s, size_t pos) {
    const auto b0 = static_cast<uint8_t>(s[pos]);
    const size_t n = claimedLength(b0);
    size_t i = 1;
    while (i < n && pos + i < s.size() && (static_cast<uint8_t>(s[pos + i]) & 0xC0) == 0x80) {
        // The second byte has tighter limits for some leads (E0, ED, F0, F4).
        if (i == 1) {
            const auto b1 = static_cast<uint8_t>(s[pos + 1]);
            if ((b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F) || (b0 == 0xF0 && b1 < 0x90) ||
                (b0 == 0xF4 && b1 > 0x8F))
                break;
        }
        ++i;
    }
    return i;
}

std::string sanitize(std::string_view s) {
    if (isValid(s)) return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    size_t i = 0;
    uint32_t cp = 0;
    while (i < s.size()) {
        const size_t n = decode(s, i, cp);
        if (n > 0) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            append(out, kReplacement);
            i += invalidRun(s, i);
        }
    }
    return out;
}

size_t completePrefix(std::string_view s) {
    // Only the last three bytes can hold an unfinished character.
    const size_t start = s.size() > 3 ? s.size() - 3 : 0;
    for (size_t i = start; i < s.size(); ++i) {
        const auto b = static_cast<uint8_t>(s[i]);
        if ((b & 0xC0) == 0x80) continue;  // continuation: belongs to an earlier lead
        const size_t n = claimedLength(b);
        if (n == 0 || i + n <= s.size()) continue;  // invalid lead or complete
        // An unfinished sequence is held only while what has arrived could still be valid.
        if (invalidRun(s, i) == s.size() - i) return i;
    }
    return s.size();
}

}  // namespace hearth::utf8
