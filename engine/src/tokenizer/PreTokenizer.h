#pragma once
// Splits normalized text into the pieces the model encodes one at a time: a sequence of regex
// split stages, each applied to every piece the previous stage produced (Hugging Face's
// Split/ByteLevel/Digits/Punctuation pre-tokenizers, and the GGUF `tokenizer.ggml.pre` presets,
// all reduce to this).
//
// Invariants: pieces are non-empty views into the text given to split(), in order; except for
// stages with behavior Removed (or invert), concatenating the pieces gives the text back.

#include <memory>
#include <string_view>
#include <vector>

#include "tokenizer/Regex.h"

namespace hearth {

enum class SplitBehavior { Isolated, Removed, MergedWithPrevious, MergedWithNext, Contiguous };

class PreTokenizer {
public:
    struct Stage {
        std::shared_ptr<const Regex> regex;
        SplitBehavior behavior = SplitBehavior::Isolated;
        bool invert = false;  // keep only what the regex matches (transformers.js semantics)
        // Match against the byte-level alphabet form of the piece (a stage that follows a
        // ByteLevel step in a Hugging Face sequence sees mapped characters, not raw bytes).
        bool onByteLevelText = false;
    };

    void addStage(Stage s) { stages_.push_back(std::move(s)); }
    bool empty() const { return stages_.empty(); }
    size_t stageCount() const { return stages_.size(); }

    void split(std::string_view text, std::vector<std::string_view>& out) const;

private:
    static void applyStage(const Stage& st, std::string_view piece, std::vector<std::string_view>& out,
                           std::vector<Regex::Span>& scratch);
    std::vector<Stage> stages_;
};

}  // namespace hearth
