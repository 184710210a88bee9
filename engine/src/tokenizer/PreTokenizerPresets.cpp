#include "tokenizer/PreTokenizerPresets.h"

#include <initializer_list>

#include "tokenizer/RegexDialect.h"

namespace hearth {
namespace {

// GPT-2: contractions, optional space + letters / numbers / other, whitespace runs (a run
// followed by a non-space leaves its last space to the next piece).
constexpr const char* kGpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
// Llama 3 (tiktoken cl100k style): case-insensitive contractions, numbers in groups of up to
// three digits, newlines kept apart from other whitespace.
constexpr const char* kLlama3 =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
// Qwen 2: the same with single digits.
constexpr const char* kQwen2 =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
// CJK ideographs, the blocks below them, and Hangul syllables, as DeepSeek's tokenizers split them.
constexpr const char* kDeepSeekCjk = R"([\x{4E00}-\x{9FA5}\x{0800}-\x{4E00}\x{AC00}-\x{D7FF}]+)";

struct StageDef {
    const char* regex;
    SplitBehavior behavior = SplitBehavior::Isolated;
    bool onByteLevelText = false;
};

Result<PreTokenizer> build(std::initializer_list<StageDef> defs) {
    PreTokenizer p;
    for (const auto& d : defs) {
        auto re = Regex::compile(RegexDialects::toPcre(d.regex, RegexDialect::Python));
        if (!re) return re.error();
        p.addStage({*re, d.behavior, false, d.onByteLevelText});
    }
    return p;
}

}  // namespace

const char* PreTokenizerPresets::byteLevelRegex() { return kGpt2; }

std::vector<std::string> PreTokenizerPresets::names() {
    return {"default", "gpt-2", "gpt2", "mpt", "gpt-neox", "olmo", "llama-bpe", "llama3", "llama-v3", "dbrx",
            "smaug-bpe", "qwen2", "deepseek-r1-qwen", "starcoder", "refact", "falcon", "deepseek-coder", "deepseek-llm"};
}

Result<GgufPreset> PreTokenizerPresets::forGguf(std::string_view pre) {
    GgufPreset preset;
    Result<PreTokenizer> p = makeError(ErrorCode::Internal, "unset");
    if (pre.empty() || pre == "default" || pre == "gpt-2" || pre == "gpt2" || pre == "mpt" || pre == "gpt-neox" ||
        pre == "olmo") {
        p = build({{kGpt2}});
    } else if (pre == "llama-bpe" || pre == "llama3" || pre == "llama-v3" || pre == "dbrx" || pre == "smaug-bpe") {
        p = build({{kLlama3}});
        preset.ignoreMerges = true;
        preset.addBos = true;
    } else if (pre == "qwen2" || pre == "deepseek-r1-qwen") {
        p = build({{kQwen2}});
    } else if (pre == "starcoder" || pre == "refact") {
        // Digits(individual) then ByteLevel with its regex.
        p = build({{R"(\p{N})"}, {kGpt2}});
    } else if (pre == "falcon") {
        // Punctuation (runs kept together; ASCII punctuation counts as punctuation), ByteLevel
        // with its regex, then Digits and three-digit groups on the byte-level text.
        p = build({{R"([\p{P}!-/:-@\[-`{-~]+)"},
                   {kGpt2},
                   {R"(\p{N}+)", SplitBehavior::Isolated, true},
                   {R"([0-9][0-9][0-9])", SplitBehavior::Isolated, true}});
    } else if (pre == "deepseek-coder") {
        p = build({{R"([\r\n])"}, {R"(\s?\p{L}+)"}, {R"(\s?\p{P}+)"}, {kDeepSeekCjk}, {R"(\p{N})"}});
        preset.addBos = true;
    } else if (pre == "deepseek-llm") {
        // The published letter class is the cased letters (upper, lower, title case); it is
        // written here with Unicode properties rather than as a list of ranges.
        p = build({{R"([\r\n])"},
                   {R"(\s?[A-Za-z\p{Lu}\p{Ll}\p{Lt}]+)"},
                   {R"(\s?[!-/:-~\x{FF01}-\x{FF0F}\x{FF1A}-\x{FF5E}\x{2018}-\x{201F}\x{3000}-\x{3002}]+)"},
                   {R"(\s+$)"},
                   {kDeepSeekCjk},
                   {R"(\p{N}+)"}});
        preset.addBos = true;
    } else {
        std::string known;
        for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
        return makeError(ErrorCode::TokenizerError,
                         "unsupported tokenizer.ggml.pre '" + std::string(pre) + "' (supported: " + known + ")");
    }
    if (!p) return p.error();
    preset.preTokenizer = std::move(*p);
    return preset;
}

}  // namespace hearth
