#pragma once
// Text normalization applied to each raw-text section (the text between added/special tokens)
// before pre-tokenization: Hugging Face's Prepend, Replace, NFC/NFD/NFKC/NFKD, Lowercase, Strip
// normalizers, and SentencePiece's whitespace escaping (space -> U+2581 plus a leading one).
//
// Invariant: steps run in the order they were added; input and output are valid UTF-8.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/Regex.h"
#include "tokenizer/UnicodeForms.h"

namespace hearth {

class Normalizer {
public:
    enum class Kind { Prepend, ReplaceString, ReplaceRegex, Form, Lowercase, Strip };
    struct Step {
        Kind kind = Kind::Prepend;
        std::string text;      // Prepend: what to prepend; Replace*: the pattern string
        std::string content;   // Replace*: the replacement
        std::shared_ptr<const Regex> regex;  // ReplaceRegex
        UnicodeForm form = UnicodeForm::NFC;
        bool left = true, right = true;      // Strip
    };

    void add(Step s) { steps_.push_back(std::move(s)); }
    bool empty() const { return steps_.empty(); }
    std::string apply(std::string_view text) const;

private:
    std::vector<Step> steps_;
};

}  // namespace hearth
