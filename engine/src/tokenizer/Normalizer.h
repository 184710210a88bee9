#pragma once
// Text normalization applied to each raw-text section (the text between added/special tokens)
// before pre-tokenization: Hugging Face's Prepend, Replace, NFC/NFD/NFKC/NFKD, Lowercase, Strip
// normalizers, BERT's (control removal, spaces around CJK ideographs, accent stripping), and
// SentencePiece's whitespace escaping (space -> U+2581 plus a leading one).
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
    enum class Kind { Prepend, ReplaceString, ReplaceRegex, PadMatches, Form, Lowercase, Strip };
    struct Step {
        Kind kind = Kind::Prepend;
        std::string text;      // Prepend: what to prepend; Replace*: the pattern string
        std::string content;   // Replace*: the replacement
        std::shared_ptr<const Regex> regex;  // ReplaceRegex, PadMatches (a space each side of a match)
        UnicodeForm form = UnicodeForm::NFC;
        bool left = true, right = true;      // Strip
        bool firstSectionOnly = false;       // Prepend: only to the text before any added token
        bool unlessPresent = false;          // Prepend: not when the text already starts with it
    };

    static Step step(Kind kind, std::string text = {}, std::string content = {},
                     std::shared_ptr<const Regex> regex = nullptr) {
        Step s;
        s.kind = kind;
        s.text = std::move(text);
        s.content = std::move(content);
        s.regex = std::move(regex);
        return s;
    }
    void add(Step s) { steps_.push_back(std::move(s)); }
    bool empty() const { return steps_.empty(); }
    // section: index of this raw-text section among the sections split by added tokens.
    std::string apply(std::string_view text, size_t section = 0) const;

private:
    std::vector<Step> steps_;
};

}  // namespace hearth
