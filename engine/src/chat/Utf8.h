#pragma once
// UTF-8 helpers for the template interpreter. Python strings are sequences of code points, so
// lengths, indices and slices in templates count code points, never bytes.
//
// Invariants: decoding never reads past the end of its input; a malformed byte decodes as itself
// (one "code point" 0xDC80 + byte, as Python's surrogateescape would) so that byte strings that are
// not valid UTF-8 still round-trip through encode(decode(s)) unchanged.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::chat::utf8 {

// Decodes the code point at s[pos] and advances pos past it.
char32_t next(std::string_view s, size_t& pos);
void append(std::string& out, char32_t cp);
std::vector<char32_t> decode(std::string_view s);
std::string encode(const std::vector<char32_t>& cps);

bool isAscii(std::string_view s);
size_t length(std::string_view s);  // in code points
// Byte offset of the code point with this index (index may equal length: returns s.size()).
size_t byteOffset(std::string_view s, size_t index);

// Python's str.isspace() for one code point (also what the jinja2 lexer's \s matches).
bool isSpace(char32_t cp);
// Python's line boundaries for str.splitlines().
bool isLineBreak(char32_t cp);
bool isAlpha(char32_t cp);
bool isDigit(char32_t cp);     // decimal digits
bool isWordChar(char32_t cp);  // what regular expressions' \w matches: alphanumerics and '_'
char32_t toUpper(char32_t cp);
char32_t toLower(char32_t cp);
bool isCased(char32_t cp);     // has an upper or lower case form
bool isUpper(char32_t cp);
bool isLower(char32_t cp);
// Whether Python's repr() prints the code point as is (str.isprintable()).
bool isPrintable(char32_t cp);

// Full-string case mappings (Python's str.upper()/lower(), including 'ß'.upper() == 'SS').
std::string upper(std::string_view s);
std::string lower(std::string_view s);

}  // namespace hearth::chat::utf8
