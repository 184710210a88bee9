#include "tokenizer/ByteLevelAlphabet.h"

#include "tokenizer/Utf8.h"

namespace hearth {

const ByteLevelAlphabet& ByteLevelAlphabet::instance() {
    static const ByteLevelAlphabet a;
    return a;
}

ByteLevelAlphabet::ByteLevelAlphabet() {
    decoded_.fill(-1);
    auto standsForItself = [](int b) { return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE; };
    uint32_t next = 0x100;
    for (int b = 0; b < 256; ++b) {
        const uint32_t cp = standsForItself(b) ? static_cast<uint32_t>(b) : next++;
        utf8::append(encoded_[b], cp);
        decoded_[cp] = static_cast<int16_t>(b);
    }
}

std::string ByteLevelAlphabet::encode(std::string_view bytes) const {
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char c : bytes) out += encoded_[static_cast<uint8_t>(c)];
    return out;
}

std::string ByteLevelAlphabet::decode(std::string_view text) const {
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        uint32_t cp = 0;
        const size_t n = utf8::decode(text, i, cp);
        if (n == 0) {  // not valid UTF-8: keep the byte as it is
            out += text[i++];
            continue;
        }
        const int b = byteOf(cp);
        if (b >= 0) out += static_cast<char>(b);
        else out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

}  // namespace hearth
