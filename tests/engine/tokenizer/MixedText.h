#pragma once
// A deterministic corpus of mixed text for tokenizer comparisons: code, Korean, CJK, emoji
// (ZWJ sequences, skin tones, flags), numbers, contractions, punctuation runs, many scripts,
// decomposed accents (NFC matters), and whitespace runs including NBSP, U+3000, U+FEFF, U+0085.
// No special-token text: added tokens that are not special may appear (they behave the same
// with or without special parsing).

#include <cstdint>
#include <string>
#include <vector>

namespace hearth::test {

class MixedText {
public:
    // `lines` lines in total, grouped into texts of 1..12 lines.
    static std::vector<std::string> texts(int lines, uint64_t seed = 0x5eed) {
        MixedText g(seed);
        std::vector<std::string> out;
        int done = 0;
        while (done < lines) {
            const int n = 1 + static_cast<int>(g.next() % 12);
            std::string text;
            for (int i = 0; i < n && done < lines; ++i, ++done) {
                if (i) text += g.pick(kNewlines);
                text += g.line();
            }
            out.push_back(std::move(text));
        }
        return out;
    }

private:
    explicit MixedText(uint64_t seed) : state_(seed) {}

    uint64_t next() {  // splitmix64
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    template <size_t N>
    std::string pick(const char* const (&a)[N]) { return a[next() % N]; }

    std::string number() {
        std::string s;
        switch (next() % 6) {
        case 0: s = std::to_string(next() % 10); break;
        case 1: s = std::to_string(next() % 100000); break;
        case 2: s = std::to_string(next()); break;  // up to 20 digits
        case 3: s = std::to_string(next() % 1000) + "." + std::to_string(next() % 100000); break;
        case 4: s = std::to_string(next() % 1000) + "," + std::to_string(100 + next() % 900) + "," + std::to_string(100 + next() % 900); break;
        default: s = "-" + std::to_string(next() % 5000) + "e-" + std::to_string(next() % 20); break;
        }
        return s;
    }

    std::string line() {
        std::string s;
        const int kind = static_cast<int>(next() % 8);
        if (kind == 0) return pick(kCode);
        if (kind == 1) s += pick(kIndent);
        const int words = 1 + static_cast<int>(next() % 12);
        for (int w = 0; w < words; ++w) {
            if (w) s += pick(kSeparators);
            switch (next() % 10) {
            case 0: s += number(); break;
            case 1: s += pick(kEmoji); break;
            case 2: s += pick(kPunct); break;
            case 3: case 4: s += pick(kScripts); break;
            default: s += pick(kWords); break;
            }
        }
        if (next() % 5 == 0) s += pick(kTrailing);
        return s;
    }

    static constexpr const char* kWords[] = {
        "the", "The", "HELLO", "world", "I'm", "you'LL", "he's", "THEY'RE", "don't", "we'Ve", "it'd", "o'clock",
        "tokenizer", "Tokenization", "naïve", "café", "Äpfel", "Größe", "straße", "résumé", "über", "coöperate",
        "e\xCC\x81" "cole", "A\xCC\x8A" "ngstr\xC3\xB6m", "n\xCC\x83", "ﬁle", "ℌ", "Ⅻ", "x²", "½cup", "snake_case",
        "camelCase", "CONSTANT_VALUE", "https://example.com/a?b=c&d=e#frag", "user@example.org", "C++", "c#",
        "v1.2.3", "2024-05-17", "12:30pm", "$100", "€50", "¥1000", "100%", "#hashtag", "@mention", "a-b-c",
    };
    static constexpr const char* kScripts[] = {
        "안녕하세요", "한국어 텍스트입니다", "토크나이저를 테스트합니다", "서울특별시", "ㄱㄴㄷ", "日本語のテキスト",
        "カタカナ", "ひらがな", "你好，世界！", "我想在apple工作1314151天～", "繁體中文", "Привет мир", "Ёлка",
        "Καλημέρα κόσμε", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "สวัสดีชาวโลก", "Tiếng Việt có dấu",
        "ქართული", "Հայերեն", "ᠮᠣᠩᠭᠣᠯ", "ខ្មែរ", "ᏣᎳᎩ", "ʻŌlelo", "ǅemal", "Ꙁ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𝟙𝟚𝟛", "٣٤٥", "१२३",
    };
    static constexpr const char* kEmoji[] = {
        "😀", "👍🏽", "👨‍👩‍👧‍👦", "🇰🇷", "🇺🇸", "❤️", "🦙", "✅", "🚀🚀", "☕", "🤖 ", "⭐️", "🏳️‍🌈", "1️⃣", "🫠",
    };
    static constexpr const char* kPunct[] = {
        "...", "!!!", "?!", "—", "–", "«quoted»", "“smart”", "‘single’", "''''", "```", "\"\"\"", "(", ")", "[]",
        "{}", "<>", "->", "=>", "::", "!=", "+=", "&&", "||", "...!", "¡Hola!", "¿Qué?", "。", "、", "！", "…", "§",
        "∑∫√∞≠≤", "±", "°C", "™", "©",
    };
    static constexpr const char* kSeparators[] = {
        " ", " ", " ", " ", " ", " ", "", "  ", "   ", "\t", " \t ", "\xC2\xA0", "\xE3\x80\x80", "\xE2\x80\x89",
        "\xEF\xBB\xBF", "\xC2\x85", "    ", "\xE2\x80\xAF",
    };
    static constexpr const char* kIndent[] = {"    ", "\t", "        ", "  ", "\t\t", " "};
    static constexpr const char* kTrailing[] = {" ", "  ", "\t", ".", "!", "\r", " \xC2\xA0"};
    static constexpr const char* kNewlines[] = {"\n", "\n", "\n", "\n\n", "\r\n", "\n\n\n", " \n", "\n \n"};
    static constexpr const char* kCode[] = {
        "def fibonacci(n: int) -> int:",
        "    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)",
        "#include <vector>",
        "std::vector<int> v{1, 2, 3}; for (auto& x : v) x *= 2;",
        "int main(int argc, char** argv) { return 0; }",
        "const f = async (a, b) => { await g(a ?? b); };",
        "SELECT id, name FROM users WHERE age >= 18 ORDER BY name DESC;",
        "if (x != nullptr && x->next) { /* comment */ }",
        "print(f\"{value:>10.3f} {name!r}\")",
        "\t\tself.items = []  # TODO: fix",
        "    }",
        "</div><div class=\"row\">",
        "<table><tr><td>1</td></tr></table>",
        "$ ls -la | grep '^d' > out.txt 2>&1",
        "x = [i**2 for i in range(10) if i % 2 == 0]",
        "fn main() { println!(\"{:?}\", vec![1u8; 4]); }",
        "      ",
        "",
    };

    uint64_t state_;
};

}  // namespace hearth::test
