#pragma once
// Builds a tokenizer from the tokenizer.* metadata of an open GGUF file, so the model loader
// can reuse the file it already mapped (Tokenizer::fromGguf(path) opens the file and calls this).

#include <memory>

#include "gguf/GgufFile.h"
#include "hearth/tokenizer.h"

namespace hearth {

class GgufTokenizerLoader {
public:
    static Result<std::shared_ptr<const Tokenizer>> load(const GgufFile& file);
};

}  // namespace hearth
