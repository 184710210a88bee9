#pragma once
// Python str methods on UTF-8 text, with Python's results: whitespace is Unicode whitespace,
// indices count code points, split() without a separator drops empty fields, title() starts a
// word after every uncased character, and so on.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::chat::pystr {

enum class Side { Both, Left, Right };
// strip()/lstrip()/rstrip(): chars == nullopt strips whitespace, else any of those code points.
std::string strip(std::string_view s, const std::optional<std::string>& chars, Side side);
// split(sep=None, maxsplit=-1) and rsplit(); sep must not be empty (ValueError).
std::vector<std::string> split(std::string_view s, const std::optional<std::string>& sep, int64_t maxsplit);
std::vector<std::string> rsplit(std::string_view s, const std::optional<std::string>& sep, int64_t maxsplit);
std::vector<std::string> splitlines(std::string_view s, bool keepends);

std::string title(std::string_view s);
std::string capitalize(std::string_view s);
std::string swapcase(std::string_view s);

// Code-point index of sub in s[start:end], or -1 (find) / the last one (rfind).
int64_t find(std::string_view s, std::string_view sub, std::optional<int64_t> start, std::optional<int64_t> end, bool reverse);
int64_t count(std::string_view s, std::string_view sub, std::optional<int64_t> start, std::optional<int64_t> end);
std::string replace(std::string_view s, std::string_view old, std::string_view repl, int64_t count);
// s[start:end] in code points, with Python's clamping of negative and large indices.
std::string substr(std::string_view s, std::optional<int64_t> start, std::optional<int64_t> end);

bool isDigit(std::string_view s);
bool isAlpha(std::string_view s);
bool isAlnum(std::string_view s);
bool isSpace(std::string_view s);
bool isLower(std::string_view s);
bool isUpper(std::string_view s);
bool isTitle(std::string_view s);
bool isIdentifier(std::string_view s);

std::string pad(std::string_view s, int64_t width, std::string_view fill, char align);  // '<' '>' '^'
std::string zfill(std::string_view s, int64_t width);
std::string expandtabs(std::string_view s, int64_t tabsize);

}  // namespace hearth::chat::pystr
