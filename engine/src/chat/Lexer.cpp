#include "chat/Lexer.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "chat/Utf8.h"

namespace hearth::chat {
namespace {

bool isDigitAt(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// Python's str.rstrip(): drops trailing whitespace (Unicode's, as str.isspace() defines it).
std::string rstripSpace(std::string_view s) {
    size_t end = s.size();
    while (end > 0) {
        size_t start = end - 1;
        while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
        size_t p = start;
        if (!utf8::isSpace(utf8::next(s, p))) break;
        end = start;
    }
    return std::string(s.substr(0, end));
}

bool allSpace(std::string_view s) {
    size_t p = 0;
    while (p < s.size())
        if (!utf8::isSpace(utf8::next(s, p))) return false;
    return true;
}

// Digits with single '_' separators: (\d+_)*\d+ . Returns the end, or start when none.
size_t scanDigits(std::string_view s, size_t i, bool (*isDigit)(char)) {
    size_t end = i;
    while (i < s.size() && isDigit(s[i])) {
        ++i;
        end = i;
        if (i + 1 < s.size() && s[i] == '_' && isDigit(s[i + 1])) ++i;
    }
    return end;
}

bool dec(char c) { return c >= '0' && c <= '9'; }
bool hex(char c) { return dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool oct(char c) { return c >= '0' && c <= '7'; }
bool bin(char c) { return c == '0' || c == '1'; }

std::string withoutUnderscores(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != '_') out.push_back(c);
    return out;
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

}  // namespace

std::vector<Token> Lexer::tokenize(std::string_view source) {
    // Newlines become "\n"; one trailing newline goes (jinja2 splits lines and drops a last empty one).
    std::string normalized;
    normalized.reserve(source.size());
    for (size_t i = 0; i < source.size(); ++i) {
        if (source[i] == '\r') {
            normalized.push_back('\n');
            if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
        } else {
            normalized.push_back(source[i]);
        }
    }
    if (!normalized.empty() && normalized.back() == '\n') normalized.pop_back();
    Lexer lexer(std::move(normalized));
    lexer.run();
    return std::move(lexer.tokens_);
}

Lexer::Lexer(std::string source) : src_(std::move(source)) {}

SourcePos Lexer::posAt(size_t offset) {
    if (offset < trackOffset_) {
        trackOffset_ = 0;
        trackLine_ = 1;
        trackColumn_ = 1;
    }
    while (trackOffset_ < offset && trackOffset_ < src_.size()) {
        const char c = src_[trackOffset_];
        if (c == '\n') {
            ++trackLine_;
            trackColumn_ = 1;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++trackColumn_;
        }
        ++trackOffset_;
    }
    return SourcePos{trackLine_, trackColumn_};
}

void Lexer::syntaxError(const std::string& message, size_t offset) {
    JinjaError e(JinjaError::Kind::Syntax, message);
    e.setPos(posAt(offset));
    throw e;
}

size_t Lexer::skipSpace(size_t from) const {
    while (from < src_.size()) {
        size_t p = from;
        if (!utf8::isSpace(utf8::next(src_, p))) break;
        from = p;
    }
    return from;
}

void Lexer::emitData(std::string text, SourcePos pos) {
    if (text.empty()) return;
    Token t;
    t.type = Token::Type::Data;
    t.text = std::move(text);
    t.pos = pos;
    tokens_.push_back(std::move(t));
}

void Lexer::run() {
    while (pos_ < src_.size()) {
        size_t tag = pos_;
        for (;;) {
            tag = src_.find('{', tag);
            if (tag == std::string::npos || tag + 1 >= src_.size()) {
                tag = std::string::npos;
                break;
            }
            const char k = src_[tag + 1];
            if (k == '{' || k == '%' || k == '#') break;
            ++tag;
        }
        if (tag == std::string::npos) {
            emitData(src_.substr(pos_), posAt(pos_));
            pos_ = src_.size();
            break;
        }
        const char kind = src_[tag + 1];
        const char sign = (tag + 2 < src_.size() && (src_[tag + 2] == '-' || src_[tag + 2] == '+')) ? src_[tag + 2] : 0;
        std::string text = src_.substr(pos_, tag - pos_);
        const SourcePos textPos = posAt(pos_);
        if (sign == '-') {
            text = rstripSpace(text);
        } else if (sign != '+' && kind != '{') {
            // lstrip_blocks: only whitespace between the line start and the tag goes.
            const size_t lineStart = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
            if ((lineStart > 0 || lineStarting_) && lineStart < text.size() && allSpace(std::string_view(text).substr(lineStart)))
                text.resize(lineStart);
        }
        emitData(std::move(text), textPos);
        const size_t afterOpener = tag + 2 + (sign ? 1 : 0);
        lineStarting_ = false;
        if (kind == '%' && lexRaw(afterOpener, sign == '-')) continue;
        if (kind == '#') {
            size_t search = afterOpener;
            for (;;) {
                const size_t close = src_.find("#}", search);
                if (close == std::string::npos) syntaxError("Missing end of comment tag", tag);
                const char before = close > afterOpener ? src_[close - 1] : 0;
                pos_ = close + 2;
                if (before == '-') {
                    pos_ = skipSpace(pos_);
                } else if (before != '+' && pos_ < src_.size() && src_[pos_] == '\n') {
                    ++pos_;  // trim_blocks
                }
                lineStarting_ = src_[pos_ - 1] == '\n';
                break;
            }
            continue;
        }
        Token begin;
        begin.type = kind == '{' ? Token::Type::VariableBegin : Token::Type::BlockBegin;
        begin.pos = posAt(tag);
        tokens_.push_back(begin);
        pos_ = afterOpener;
        lexTagBody(kind == '{' ? Token::Type::VariableEnd : Token::Type::BlockEnd);
    }
    Token eof;
    eof.type = Token::Type::Eof;
    eof.pos = posAt(src_.size());
    tokens_.push_back(eof);
}

// {% raw %}...{% endraw %}: the content is data, taken verbatim (whitespace control still applies
// at its two ends).
bool Lexer::lexRaw(size_t afterOpener, bool /*openerStrip*/) {
    size_t p = skipSpace(afterOpener);
    if (src_.compare(p, 3, "raw") != 0) return false;
    p = skipSpace(p + 3);
    if (src_.compare(p, 3, "-%}") == 0) {
        p = skipSpace(p + 3);
    } else if (src_.compare(p, 2, "%}") == 0) {
        p += 2;
    } else {
        return false;
    }
    const size_t rawTagStart = afterOpener;
    lineStarting_ = src_[p - 1] == '\n';
    size_t search = p;
    for (;;) {
        const size_t open = src_.find("{%", search);
        if (open == std::string::npos) syntaxError("Missing end of raw directive", rawTagStart);
        size_t q = open + 2;
        const char sign = (q < src_.size() && (src_[q] == '-' || src_[q] == '+')) ? src_[q] : 0;
        if (sign) ++q;
        q = skipSpace(q);
        if (src_.compare(q, 6, "endraw") != 0) {
            search = open + 2;
            continue;
        }
        q = skipSpace(q + 6);
        size_t end;
        if (src_.compare(q, 3, "+%}") == 0) end = q + 3;
        else if (src_.compare(q, 3, "-%}") == 0) end = skipSpace(q + 3);
        else if (src_.compare(q, 2, "%}") == 0) end = (q + 2 < src_.size() && src_[q + 2] == '\n') ? q + 3 : q + 2;
        else {
            search = open + 2;
            continue;
        }
        std::string text = src_.substr(p, open - p);
        if (sign == '-') {
            text = rstripSpace(text);
        } else if (sign != '+') {
            const size_t lineStart = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
            if ((lineStart > 0 || lineStarting_) && lineStart < text.size() && allSpace(std::string_view(text).substr(lineStart)))
                text.resize(lineStart);
        }
        emitData(std::move(text), posAt(p));
        pos_ = end;
        lineStarting_ = src_[end - 1] == '\n';
        return true;
    }
}

bool Lexer::lexTagEnd(Token::Type endType) {
    const bool block = endType == Token::Type::BlockEnd;
    const char* close = block ? "%}" : "}}";
    size_t end = 0;
    const size_t start = pos_;
    if (block && src_.compare(pos_, 3, "+%}") == 0) {
        end = pos_ + 3;
    } else if (src_.compare(pos_, 1, "-") == 0 && src_.compare(pos_ + 1, 2, close) == 0) {
        end = skipSpace(pos_ + 3);
    } else if (src_.compare(pos_, 2, close) == 0) {
        end = pos_ + 2;
        if (block && end < src_.size() && src_[end] == '\n') ++end;  // trim_blocks
    } else {
        return false;
    }
    Token t;
    t.type = endType;
    t.pos = posAt(start);
    tokens_.push_back(t);
    pos_ = end;
    lineStarting_ = src_[end - 1] == '\n';
    return true;
}

void Lexer::lexTagBody(Token::Type endType) {
    brackets_.clear();
    for (;;) {
        if (pos_ >= src_.size()) syntaxError("unexpected end of template inside a tag", pos_);
        if (brackets_.empty() && lexTagEnd(endType)) return;
        const size_t afterSpace = skipSpace(pos_);
        if (afterSpace != pos_) {
            pos_ = afterSpace;
            continue;
        }
        lexExpressionToken();
    }
}

void Lexer::lexExpressionToken() {
    const std::string_view s = src_;
    const size_t start = pos_;
    Token t;
    t.pos = posAt(start);
    const char c = s[start];
    if (dec(c)) {
        // Float first (jinja2 tries its float rule before the integer rule).
        const bool afterDot = start > 0 && s[start - 1] == '.';
        size_t i = scanDigits(s, start, dec);
        bool isFloat = false;
        if (!afterDot) {
            size_t j = i;
            if (j < s.size() && s[j] == '.' && isDigitAt(s, j + 1)) {
                j = scanDigits(s, j + 1, dec);
                isFloat = true;
            }
            if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
                size_t k = j + 1;
                if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
                if (isDigitAt(s, k)) {
                    j = scanDigits(s, k, dec);
                    isFloat = true;
                }
            }
            if (isFloat) {
                t.type = Token::Type::Float;
                t.text = std::string(s.substr(start, j - start));
                t.floatValue = std::strtod(withoutUnderscores(t.text).c_str(), nullptr);
                pos_ = j;
                tokens_.push_back(std::move(t));
                return;
            }
        }
        // Integers: 0b / 0o / 0x prefixes, decimal without leading zeros, or zeros.
        int base = 10;
        size_t digitsStart = start;
        size_t end;
        const char p = start + 1 < s.size() ? static_cast<char>(s[start + 1] | 0x20) : 0;
        auto prefixed = [&](bool (*ok)(char)) {
            size_t k = start + 2, last = start;
            while (k < s.size()) {
                if (s[k] == '_' && k + 1 < s.size() && ok(s[k + 1])) ++k;
                if (k < s.size() && ok(s[k])) {
                    ++k;
                    last = k;
                } else {
                    break;
                }
            }
            return last;
        };
        if (c == '0' && (p == 'b' || p == 'o' || p == 'x') && (end = prefixed(p == 'b' ? bin : p == 'o' ? oct : hex)) > start) {
            base = p == 'b' ? 2 : p == 'o' ? 8 : 16;
            digitsStart = start + 2;
        } else if (c == '0') {
            end = start + 1;
            while (end < s.size() && (s[end] == '0' || (s[end] == '_' && end + 1 < s.size() && s[end + 1] == '0'))) ++end;
        } else {
            end = i;
        }
        const std::string digits = withoutUnderscores(s.substr(digitsStart, end - digitsStart));
        errno = 0;
        const unsigned long long v = std::strtoull(digits.c_str(), nullptr, base);
        if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX)) syntaxError("integer literal too large", start);
        t.type = Token::Type::Integer;
        t.intValue = static_cast<int64_t>(v);
        t.text = std::string(s.substr(start, end - start));
        pos_ = end;
        tokens_.push_back(std::move(t));
        return;
    }
    if (c == '\'' || c == '"') {
        std::string value;
        size_t i = start + 1;
        for (;;) {
            if (i >= s.size()) syntaxError("unexpected char " + std::string(1, c) + " (unterminated string)", start);
            const char ch = s[i];
            if (ch == c) break;
            if (ch != '\\') {
                value.push_back(ch);
                ++i;
                continue;
            }
            // Python's unicode-escape decoding of the literal.
            if (i + 1 >= s.size()) syntaxError("unterminated string", start);
            const char e = s[i + 1];
            i += 2;
            switch (e) {
                case '\n': break;
                case '\\': value.push_back('\\'); break;
                case '\'': value.push_back('\''); break;
                case '"': value.push_back('"'); break;
                case 'a': value.push_back('\a'); break;
                case 'b': value.push_back('\b'); break;
                case 'f': value.push_back('\f'); break;
                case 'n': value.push_back('\n'); break;
                case 'r': value.push_back('\r'); break;
                case 't': value.push_back('\t'); break;
                case 'v': value.push_back('\v'); break;
                case 'x': case 'u': case 'U': {
                    const int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    char32_t cp = 0;
                    for (int k = 0; k < n; ++k) {
                        if (i + k >= s.size() || !hex(s[i + k]))
                            syntaxError(std::string("truncated \\") + e + " escape in a string literal", start);
                        cp = cp * 16 + hexValue(s[i + k]);
                    }
                    if (cp > 0x10FFFF) syntaxError("illegal Unicode character in a string literal", start);
                    i += n;
                    utf8::append(value, cp);
                    break;
                }
                case 'N': syntaxError("\\N{...} escapes are not supported", start);
                default:
                    if (oct(e)) {
                        char32_t cp = e - '0';
                        for (int k = 0; k < 2 && i < s.size() && oct(s[i]); ++k) cp = cp * 8 + (s[i++] - '0');
                        utf8::append(value, cp);
                    } else if (static_cast<unsigned char>(e) >= 0x80) {
                        // backslashreplace turned the character into its escape, kept verbatim.
                        size_t q = i - 1;
                        const char32_t cp = utf8::next(s, q);
                        char buf[16];
                        if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(cp));
                        else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(cp));
                        else std::snprintf(buf, sizeof buf, "\\U%08x", unsigned(cp));
                        value += buf;
                        i = q;
                    } else {
                        value.push_back('\\');
                        value.push_back(e);
                    }
            }
        }
        t.type = Token::Type::String;
        t.text = std::move(value);
        pos_ = i + 1;
        tokens_.push_back(std::move(t));
        return;
    }
    {
        size_t p = start;
        const char32_t cp = utf8::next(s, p);
        if (cp == '_' || utf8::isAlpha(cp)) {
            size_t end = p;
            while (end < s.size()) {
                size_t q = end;
                const char32_t d = utf8::next(s, q);
                if (d != '_' && !utf8::isAlpha(d) && !utf8::isDigit(d)) break;
                end = q;
            }
            t.type = Token::Type::Name;
            t.text = std::string(s.substr(start, end - start));
            pos_ = end;
            tokens_.push_back(std::move(t));
            return;
        }
    }
    static const char* kTwo[] = {"//", "**", "==", "!=", ">=", "<="};
    for (const char* op : kTwo) {
        if (s.compare(start, 2, op) == 0) {
            t.type = Token::Type::Operator;
            t.text = op;
            pos_ = start + 2;
            tokens_.push_back(std::move(t));
            return;
        }
    }
    static const std::string_view kOne = "+-/*%~[](){}<>=.:|,;";
    if (kOne.find(c) == std::string_view::npos) syntaxError(std::string("unexpected char '") + c + "'", start);
    if (c == '(' || c == '[' || c == '{') {
        brackets_.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (c == ')' || c == ']' || c == '}') {
        if (brackets_.empty()) syntaxError(std::string("unexpected '") + c + "'", start);
        if (brackets_.back() != c)
            syntaxError(std::string("unexpected '") + c + "', expected '" + brackets_.back() + "'", start);
        brackets_.pop_back();
    }
    t.type = Token::Type::Operator;
    t.text = std::string(1, c);
    pos_ = start + 1;
    tokens_.push_back(std::move(t));
}

}  // namespace hearth::chat
