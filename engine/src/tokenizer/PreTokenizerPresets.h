#pragma once
// The pre-tokenizers GGUF files name in `tokenizer.ggml.pre`, rebuilt from each model family's
// published Hugging Face pre-tokenizer definition (Split regexes, ByteLevel's GPT-2 regex,
// Digits, Punctuation) as PreTokenizer stages.

#include <string>
#include <string_view>
#include <vector>

#include "hearth/result.h"
#include "tokenizer/PreTokenizer.h"

namespace hearth {

struct GgufPreset {
    PreTokenizer preTokenizer;
    bool ignoreMerges = false;  // whole-word vocab hits skip BPE (Llama 3)
    bool addBos = false;        // default when the file has no tokenizer.ggml.add_bos_token
};

class PreTokenizerPresets {
public:
    static Result<GgufPreset> forGguf(std::string_view pre);
    static std::vector<std::string> names();
    // The regex of the ByteLevel pre-tokenizer (GPT-2's), used when use_regex is on.
    static const char* byteLevelRegex();
};

}  // namespace hearth
