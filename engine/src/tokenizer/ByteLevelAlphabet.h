#pragma once
// The byte-level BPE alphabet (GPT-2 and its descendants): every byte value has one printable
// Unicode character standing for it, so vocab pieces are text even when they hold raw bytes.
// Printable Latin-1 bytes stand for themselves; the other 68 bytes (controls, space, 0x7F-0xA0,
// 0xAD) map in increasing order to U+0100, U+0101, ...
//
// Invariant: the mapping is a bijection between the 256 byte values and 256 code points.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace hearth {

class ByteLevelAlphabet {
public:
    static const ByteLevelAlphabet& instance();

    // The UTF-8 text of the character standing for byte b.
    const std::string& encodeByte(uint8_t b) const { return encoded_[b]; }
    std::string encode(std::string_view bytes) const;
    // The byte a code point stands for, or -1 when it is not in the alphabet.
    int byteOf(uint32_t cp) const { return cp < decoded_.size() ? decoded_[cp] : -1; }
    // Inverse of encode(); characters outside the alphabet are kept as their UTF-8 bytes.
    std::string decode(std::string_view text) const;

private:
    ByteLevelAlphabet();
    std::array<std::string, 256> encoded_;
    std::array<int16_t, 512> decoded_{};
};

}  // namespace hearth
