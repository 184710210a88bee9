#pragma once
// A trie over byte strings (token texts), for walking a whole vocabulary with one automaton: the
// walk feeds each edge byte once and shares the work of common prefixes, instead of simulating
// every token separately.
//
// Invariants: nodes()[0] is the root (no byte, no tokens); children of a node are a linked list
// (firstChild, nextSibling; kNone ends it) in increasing byte order; the tokens whose text is the
// path to a node are tokens()[tokensBegin, tokensEnd); every entry's text is non-empty; immutable
// after construction.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hearth/tokenizer.h"

namespace hearth::constraint {

class ByteTrie {
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    struct Node {
        uint32_t firstChild = kNone;
        uint32_t nextSibling = kNone;
        uint32_t tokensBegin = 0, tokensEnd = 0;
        uint8_t byte = 0;
    };

    ByteTrie() : nodes_(1) {}
    explicit ByteTrie(std::vector<std::pair<std::string, TokenId>> entries);

    const std::vector<Node>& nodes() const { return nodes_; }
    const std::vector<TokenId>& tokens() const { return tokens_; }
    size_t maxDepth() const { return maxDepth_; }

private:
    std::vector<Node> nodes_;
    std::vector<TokenId> tokens_;
    size_t maxDepth_ = 0;
};

}  // namespace hearth::constraint
