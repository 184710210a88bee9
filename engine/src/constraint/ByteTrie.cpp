#include "constraint/ByteTrie.h"

#include <algorithm>

namespace hearth::constraint {

ByteTrie::ByteTrie(std::vector<std::pair<std::string, TokenId>> entries) : nodes_(1) {
    std::erase_if(entries, [](const auto& e) { return e.first.empty(); });
    // Sorted insertion builds children in byte order and keeps equal texts adjacent, so the tokens
    // of one node form one contiguous range.
    std::sort(entries.begin(), entries.end());
    tokens_.reserve(entries.size());
    std::vector<uint32_t> path{0};          // path[d]: node at depth d along the previous text
    std::vector<uint32_t> lastChild{kNone};  // lastChild[d]: newest child of path[d]
    const std::string* prev = nullptr;
    for (const auto& [text, id] : entries) {
        size_t common = 0;
        if (prev) {
            const size_t n = std::min(prev->size(), text.size());
            while (common < n && (*prev)[common] == text[common]) ++common;
        }
        path.resize(common + 1);
        lastChild.resize(common + 1);
        for (size_t d = common; d < text.size(); ++d) {
            const auto n = static_cast<uint32_t>(nodes_.size());
            Node node;
            node.byte = static_cast<uint8_t>(text[d]);
            nodes_.push_back(node);
            if (lastChild[d] == kNone) nodes_[path[d]].firstChild = n;
            else nodes_[lastChild[d]].nextSibling = n;
            lastChild[d] = n;
            path.push_back(n);
            lastChild.push_back(kNone);
        }
        Node& end = nodes_[path[text.size()]];
        if (end.tokensBegin == end.tokensEnd) end.tokensBegin = static_cast<uint32_t>(tokens_.size());
        tokens_.push_back(id);
        end.tokensEnd = static_cast<uint32_t>(tokens_.size());
        maxDepth_ = std::max(maxDepth_, text.size());
        prev = &text;
    }
}

}  // namespace hearth::constraint
