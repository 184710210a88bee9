#pragma once
// Finds added/special tokens in raw text before normalization, so their text never reaches the
// model: scanning left to right, the longest eligible token starting at each position wins.
// Special (control) tokens are eligible only when the caller asks to parse special text;
// user-defined (non-special added) tokens always are, as in Hugging Face and llama.cpp.
//
// Invariants: the trie's node 0 is the root; a node's entry indexes entries_ or is -1; fragments
// from split() are in text order, cover the text exactly (up to lstrip/rstrip trimming), and
// text fragments are never empty.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hearth/tokenizer.h"

namespace hearth {

class AddedTokenSplitter {
public:
    struct Entry {
        std::string text;
        TokenId id = -1;
        bool special = false;  // needs parseSpecial
        bool lstrip = false;   // swallows whitespace before it
        bool rstrip = false;   // swallows whitespace after it
    };
    struct Fragment {
        TokenId id = -1;        // >= 0: a token; otherwise raw text
        std::string_view text;
    };

    void add(Entry e);
    bool empty() const { return entries_.empty(); }
    void split(std::string_view text, bool parseSpecial, std::vector<Fragment>& out) const;

private:
    struct Node {
        std::vector<std::pair<uint8_t, int32_t>> children;  // sorted by byte
        int32_t entry = -1;
    };
    int32_t child(int32_t node, uint8_t b) const;
    std::vector<Entry> entries_;
    std::vector<Node> nodes_{Node{}};
};

}  // namespace hearth
