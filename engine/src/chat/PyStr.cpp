#include "chat/PyStr.h"

#include <algorithm>

#include "chat/JinjaError.h"
#include "chat/Utf8.h"

namespace hearth::chat::pystr {
namespace {

// Byte offset of code point index i after Python's slice clamping (negative counts from the end).
size_t clampedOffset(std::string_view s, std::optional<int64_t> index, bool isEnd, int64_t& cpIndex) {
    const auto n = static_cast<int64_t>(utf8::length(s));
    int64_t i = index ? *index : (isEnd ? n : 0);
    if (i < 0) i = std::max<int64_t>(0, i + n);
    if (i > n) i = n;
    cpIndex = i;
    return utf8::isAscii(s) ? static_cast<size_t>(i) : utf8::byteOffset(s, static_cast<size_t>(i));
}

bool spaceAt(std::string_view s, size_t pos, size_t& next) {
    next = pos;
    return utf8::isSpace(utf8::next(s, next));
}

}  // namespace

std::string strip(std::string_view s, const std::optional<std::string>& chars, Side side) {
    if (!chars) {
        // Whitespace: walk in from both ends without decoding the middle.
        size_t b = 0, e = s.size(), next = 0;
        if (side != Side::Right)
            while (b < e && spaceAt(s, b, next)) b = next;
        if (side != Side::Left) {
            while (e > b) {
                size_t start = e - 1;
                while (start > b && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
                if (!spaceAt(s, start, next) || next != e) break;
                e = start;
            }
        }
        return std::string(s.substr(b, e - b));
    }
    std::vector<char32_t> set;
    if (chars) set = utf8::decode(*chars);
    auto strips = [&](char32_t c) {
        return chars ? std::find(set.begin(), set.end(), c) != set.end() : utf8::isSpace(c);
    };
    auto cps = utf8::decode(s);
    size_t b = 0, e = cps.size();
    if (side != Side::Right)
        while (b < e && strips(cps[b])) ++b;
    if (side != Side::Left)
        while (e > b && strips(cps[e - 1])) --e;
    return utf8::encode(std::vector<char32_t>(cps.begin() + static_cast<std::ptrdiff_t>(b), cps.begin() + static_cast<std::ptrdiff_t>(e)));
}

std::vector<std::string> split(std::string_view s, const std::optional<std::string>& sep, int64_t maxsplit) {
    std::vector<std::string> out;
    if (maxsplit < 0) maxsplit = INT64_MAX;
    if (sep) {
        if (sep->empty()) fail(JinjaError::Kind::Value, "empty separator");
        size_t start = 0;
        int64_t n = 0;
        for (;;) {
            const size_t hit = n < maxsplit ? s.find(*sep, start) : std::string_view::npos;
            if (hit == std::string_view::npos) break;
            out.emplace_back(s.substr(start, hit - start));
            start = hit + sep->size();
            ++n;
        }
        out.emplace_back(s.substr(start));
        return out;
    }
    size_t pos = 0, next = 0;
    int64_t n = 0;
    for (;;) {
        while (pos < s.size() && spaceAt(s, pos, next)) pos = next;
        if (pos >= s.size()) break;
        if (n >= maxsplit) {
            out.emplace_back(s.substr(pos));
            break;
        }
        size_t end = pos;
        while (end < s.size() && !spaceAt(s, end, next)) end = next;
        out.emplace_back(s.substr(pos, end - pos));
        ++n;
        pos = end;
    }
    return out;
}

std::vector<std::string> rsplit(std::string_view s, const std::optional<std::string>& sep, int64_t maxsplit) {
    if (maxsplit < 0) return split(s, sep, -1);
    std::vector<std::string> out;
    if (sep) {
        if (sep->empty()) fail(JinjaError::Kind::Value, "empty separator");
        size_t end = s.size();
        int64_t n = 0;
        while (n < maxsplit) {
            if (end < sep->size()) break;
            const size_t hit = s.rfind(*sep, end - sep->size());
            if (hit == std::string_view::npos) break;
            out.emplace_back(s.substr(hit + sep->size(), end - hit - sep->size()));
            end = hit;
            ++n;
        }
        out.emplace_back(s.substr(0, end));
        std::reverse(out.begin(), out.end());
        return out;
    }
    auto cps = utf8::decode(s);
    size_t end = cps.size();
    int64_t n = 0;
    for (;;) {
        while (end > 0 && utf8::isSpace(cps[end - 1])) --end;
        if (end == 0) break;
        if (n >= maxsplit) {
            out.push_back(utf8::encode(std::vector<char32_t>(cps.begin(), cps.begin() + static_cast<std::ptrdiff_t>(end))));
            break;
        }
        size_t start = end;
        while (start > 0 && !utf8::isSpace(cps[start - 1])) --start;
        out.push_back(utf8::encode(std::vector<char32_t>(cps.begin() + static_cast<std::ptrdiff_t>(start),
                                                         cps.begin() + static_cast<std::ptrdiff_t>(end))));
        ++n;
        end = start;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<std::string> splitlines(std::string_view s, bool keepends) {
    std::vector<std::string> out;
    size_t lineStart = 0, pos = 0;
    while (pos < s.size()) {
        const size_t at = pos;
        const char32_t c = utf8::next(s, pos);
        if (!utf8::isLineBreak(c)) continue;
        size_t end = pos;
        if (c == '\r' && pos < s.size() && s[pos] == '\n') end = ++pos;
        out.emplace_back(s.substr(lineStart, (keepends ? end : at) - lineStart));
        lineStart = pos;
    }
    if (lineStart < s.size()) out.emplace_back(s.substr(lineStart));
    return out;
}

std::string title(std::string_view s) {
    std::string out;
    bool previousCased = false;
    size_t pos = 0;
    while (pos < s.size()) {
        char32_t c = utf8::next(s, pos);
        const bool cased = utf8::isCased(c);
        if (cased && !previousCased && c == 0xDF) {
            out += "Ss";  // the title case of 'ß'
            previousCased = true;
            continue;
        }
        if (cased) c = previousCased ? utf8::toLower(c) : utf8::toUpper(c);
        previousCased = cased;
        utf8::append(out, c);
    }
    return out;
}

std::string capitalize(std::string_view s) {
    std::string out;
    size_t pos = 0;
    bool first = true;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        if (first && c == 0xDF) out += "Ss";  // the title case of 'ß'
        else utf8::append(out, first ? utf8::toUpper(c) : utf8::toLower(c));
        first = false;
    }
    return out;
}

std::string swapcase(std::string_view s) {
    std::string out;
    size_t pos = 0;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        utf8::append(out, utf8::isUpper(c) ? utf8::toLower(c) : utf8::isLower(c) ? utf8::toUpper(c) : c);
    }
    return out;
}

int64_t find(std::string_view s, std::string_view sub, std::optional<int64_t> start, std::optional<int64_t> end, bool reverse) {
    int64_t cpStart, cpEnd;
    const size_t b = clampedOffset(s, start, false, cpStart);
    const size_t e = clampedOffset(s, end, true, cpEnd);
    if (b > e || e - b < sub.size()) return (sub.empty() && b <= e) ? (reverse ? cpEnd : cpStart) : -1;
    const std::string_view window = s.substr(b, e - b);
    const size_t hit = reverse ? window.rfind(sub) : window.find(sub);
    if (hit == std::string_view::npos) return -1;
    return cpStart + static_cast<int64_t>(utf8::length(window.substr(0, hit)));
}

int64_t count(std::string_view s, std::string_view sub, std::optional<int64_t> start, std::optional<int64_t> end) {
    int64_t cpStart, cpEnd;
    const size_t b = clampedOffset(s, start, false, cpStart);
    const size_t e = clampedOffset(s, end, true, cpEnd);
    if (b > e) return 0;
    if (sub.empty()) return cpEnd - cpStart + 1;
    const std::string_view window = s.substr(b, e - b);
    int64_t n = 0;
    for (size_t pos = window.find(sub); pos != std::string_view::npos; pos = window.find(sub, pos + sub.size())) ++n;
    return n;
}

std::string replace(std::string_view s, std::string_view old, std::string_view repl, int64_t count) {
    if (count < 0) count = INT64_MAX;
    std::string out;
    if (old.empty()) {
        size_t pos = 0;
        int64_t n = 0;
        while (pos < s.size()) {
            if (n < count) {
                out += repl;
                ++n;
            }
            const size_t at = pos;
            utf8::next(s, pos);
            out += s.substr(at, pos - at);
        }
        if (n < count) out += repl;
        return out;
    }
    size_t start = 0;
    int64_t n = 0;
    while (n < count) {
        const size_t hit = s.find(old, start);
        if (hit == std::string_view::npos) break;
        out += s.substr(start, hit - start);
        out += repl;
        start = hit + old.size();
        ++n;
    }
    out += s.substr(start);
    return out;
}

std::string substr(std::string_view s, std::optional<int64_t> start, std::optional<int64_t> end) {
    int64_t a, b;
    const size_t from = clampedOffset(s, start, false, a);
    const size_t to = clampedOffset(s, end, true, b);
    return from < to ? std::string(s.substr(from, to - from)) : std::string();
}

template <class Pred>
static bool allOf(std::string_view s, Pred pred) {
    if (s.empty()) return false;
    size_t pos = 0;
    while (pos < s.size())
        if (!pred(utf8::next(s, pos))) return false;
    return true;
}

bool isDigit(std::string_view s) { return allOf(s, utf8::isDigit); }
bool isAlpha(std::string_view s) { return allOf(s, utf8::isAlpha); }
bool isAlnum(std::string_view s) { return allOf(s, [](char32_t c) { return utf8::isAlpha(c) || utf8::isDigit(c); }); }
bool isSpace(std::string_view s) { return allOf(s, utf8::isSpace); }

bool isLower(std::string_view s) {
    bool cased = false;
    size_t pos = 0;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        if (utf8::isUpper(c)) return false;
        if (utf8::isLower(c)) cased = true;
    }
    return cased;
}

bool isUpper(std::string_view s) {
    bool cased = false;
    size_t pos = 0;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        if (utf8::isLower(c)) return false;
        if (utf8::isUpper(c)) cased = true;
    }
    return cased;
}

bool isTitle(std::string_view s) {
    bool cased = false, previousCased = false;
    size_t pos = 0;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        if (utf8::isUpper(c)) {
            if (previousCased) return false;
            previousCased = cased = true;
        } else if (utf8::isLower(c)) {
            if (!previousCased) return false;
            previousCased = cased = true;
        } else {
            previousCased = false;
        }
    }
    return cased;
}

bool isIdentifier(std::string_view s) {
    if (s.empty()) return false;
    size_t pos = 0;
    const char32_t first = utf8::next(s, pos);
    if (first != '_' && !utf8::isAlpha(first)) return false;
    while (pos < s.size()) {
        const char32_t c = utf8::next(s, pos);
        if (c != '_' && !utf8::isAlpha(c) && !utf8::isDigit(c)) return false;
    }
    return true;
}

std::string pad(std::string_view s, int64_t width, std::string_view fill, char align) {
    if (utf8::length(fill) != 1) failType("The fill character must be exactly one character long");
    const auto len = static_cast<int64_t>(utf8::length(s));
    if (width <= len) return std::string(s);
    const int64_t marg = width - len;
    int64_t left = 0;
    if (align == '>') left = marg;
    else if (align == '^') left = marg / 2 + (marg & width & 1);
    std::string out;
    for (int64_t i = 0; i < left; ++i) out += fill;
    out += s;
    for (int64_t i = left; i < marg; ++i) out += fill;
    return out;
}

std::string zfill(std::string_view s, int64_t width) {
    const auto len = static_cast<int64_t>(utf8::length(s));
    if (width <= len) return std::string(s);
    std::string out(s);
    const size_t at = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    out.insert(at, static_cast<size_t>(width - len), '0');
    return out;
}

std::string expandtabs(std::string_view s, int64_t tabsize) {
    std::string out;
    int64_t column = 0;
    size_t pos = 0;
    while (pos < s.size()) {
        const size_t at = pos;
        const char32_t c = utf8::next(s, pos);
        if (c == '\t') {
            if (tabsize > 0) {
                const int64_t spaces = tabsize - column % tabsize;
                out.append(static_cast<size_t>(spaces), ' ');
                column += spaces;
            }
        } else {
            out += s.substr(at, pos - at);
            column = (c == '\n' || c == '\r') ? 0 : column + 1;
        }
    }
    return out;
}

}  // namespace hearth::chat::pystr
