#pragma once
// UTF-8 helpers shared by the tokenizers: decoding one code point, repairing invalid input, and
// finding where a byte stream stops on a character boundary (for incremental detokenizing).
//
// "Valid" means RFC 3629 UTF-8: shortest form, no surrogates, nothing above U+10FFFF.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::utf8 {

inline constexpr uint32_t kReplacement = 0xFFFD;

// Length of the valid sequence starting at s[pos] (1..4), or 0 when the bytes there are not a
// complete valid sequence; cp receives the code point when valid.
size_t decode(std::string_view s, size_t pos, uint32_t& cp);

// Length a sequence starting with this lead byte claims (1..4), or 0 for a byte that cannot lead.
size_t claimedLength(uint8_t lead);

void append(std::string& out, uint32_t cp);

bool isValid(std::string_view s);

// A copy where every maximal invalid subsequence is replaced by U+FFFD.
std::string sanitize(std::string_view s);

// How many leading bytes of s form complete characters (or invalid bytes, which count as
// complete because they will be replaced); the rest is the start of a character still arriving.
size_t completePrefix(std::string_view s);

}  // namespace hearth::utf8
