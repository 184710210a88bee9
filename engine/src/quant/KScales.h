#pragma once
// The packed sub-block scale formats of the k-quants (12 bytes each).
//
// Q4_K / Q5_K: eight 6-bit scales and eight 6-bit mins. For j < 4: scale j = b[j] & 63 and min j =
// b[j+4] & 63. For j >= 4: the low 4 bits come from b[j+4] (scale: low nibble, min: high nibble) and
// the top 2 bits from the spare top bits of b[j-4] (scale) and b[j] (min).
// Q3_K: sixteen 6-bit values (stored as scale + 32). Value i: low 4 bits are the low nibble of b[i]
// for i < 8 and the high nibble of b[i-8] otherwise; top 2 bits are (b[8 + i%4] >> 2*(i/4)) & 3.
// pack(unpack(b)) == b for every byte pattern, and unpack(pack(v)) == v for values in 0..63.

#include <cstdint>
#include <cstring>

namespace hearth::quant {

inline void unpackScaleMinK4(const uint8_t* b, uint8_t* scales8, uint8_t* mins8) {
    for (int j = 0; j < 4; ++j) {
        scales8[j] = b[j] & 63;
        mins8[j] = b[j + 4] & 63;
        scales8[j + 4] = static_cast<uint8_t>((b[j + 8] & 0x0F) | ((b[j] >> 6) << 4));
        mins8[j + 4] = static_cast<uint8_t>((b[j + 8] >> 4) | ((b[j + 4] >> 6) << 4));
    }
}

inline void packScaleMinK4(const uint8_t* scales8, const uint8_t* mins8, uint8_t* b) {
    for (int j = 0; j < 4; ++j) {
        b[j] = static_cast<uint8_t>((scales8[j] & 63) | ((scales8[j + 4] >> 4) << 6));
        b[j + 4] = static_cast<uint8_t>((mins8[j] & 63) | ((mins8[j + 4] >> 4) << 6));
        b[j + 8] = static_cast<uint8_t>((scales8[j + 4] & 0x0F) | ((mins8[j + 4] & 0x0F) << 4));
    }
}

// The same unpacking as unpackScaleMinK4 on 32-bit words (the hot-loop form): returns the eight
// scales in the first 8 bytes of out16 and the eight mins in the last 8.
inline void unpackScaleMinK4Words(const uint8_t* b, uint8_t* out16) {
    uint32_t w[3];
    std::memcpy(w, b, 12);
    const uint32_t lo6 = 0x3F3F3F3Fu, lo4 = 0x0F0F0F0Fu, lo2 = 0x03030303u;
    const uint32_t sc0 = w[0] & lo6;
    const uint32_t mn0 = w[1] & lo6;
    const uint32_t sc1 = (w[2] & lo4) | (((w[0] >> 6) & lo2) << 4);
    const uint32_t mn1 = ((w[2] >> 4) & lo4) | (((w[1] >> 6) & lo2) << 4);
    const uint32_t o[4] = {sc0, sc1, mn0, mn1};
    std::memcpy(out16, o, 16);
}

inline void unpackScalesQ3K(const uint8_t* b, int8_t* scales16) {
    for (int i = 0; i < 16; ++i) {
        const int low = i < 8 ? (b[i] & 0x0F) : (b[i - 8] >> 4);
        const int high = (b[8 + i % 4] >> (2 * (i / 4))) & 3;
        scales16[i] = static_cast<int8_t>((low | (high << 4)) - 32);
    }
}

// values16: stored values 0..63 (scale + 32).
inline void packScalesQ3K(const uint8_t* values16, uint8_t* b) {
    std::memset(b, 0, 12);
    for (int i = 0; i < 16; ++i) {
        const uint8_t v = values16[i] & 63;
        if (i < 8) b[i] |= v & 0x0F;
        else b[i - 8] |= static_cast<uint8_t>((v & 0x0F) << 4);
        b[8 + i % 4] |= static_cast<uint8_t>((v >> 4) << (2 * (i / 4)));
    }
}

}  // namespace hearth::quant
