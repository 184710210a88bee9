#include "tokenizer/AddedTokenSplitter.h"

#include <algorithm>

namespace hearth {

int32_t AddedTokenSplitter::child(int32_t node, uint8_t b) const {
    const auto& ch = nodes_[static_cast<size_t>(node)].children;
    auto it = std::lower_bound(ch.begin(), ch.end(), b, [](const auto& p, uint8_t v) { return p.first < v; });
    return it != ch.end() && it->first == b ? it->second : -1;
}

void AddedTokenSplitter::add(Entry e) {
    if (e.text.empty()) return;
    int32_t node = 0;
    for (char c : e.text) {
        const auto b = static_cast<uint8_t>(c);
        int32_t next = child(node, b);
        if (next < 0) {
            next = static_cast<int32_t>(nodes_.size());
            nodes_.push_back(Node{});
            auto& ch = nodes_[static_cast<size_t>(node)].children;
            auto it = std::lower_bound(ch.begin(), ch.end(), b, [](const auto& p, uint8_t v) { return p.first < v; });
            ch.insert(it, {b, next});
        }
        node = next;
    }
    auto& slot = nodes_[static_cast<size_t>(node)].entry;
    if (slot >= 0) {
        entries_[static_cast<size_t>(slot)] = std::move(e);  // the later definition wins
    } else {
        slot = static_cast<int32_t>(entries_.size());
        entries_.push_back(std::move(e));
    }
}

static bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

void AddedTokenSplitter::split(std::string_view text, bool parseSpecial, std::vector<Fragment>& out) const {
    const size_t first = out.size();
    size_t textStart = 0, i = 0;
    while (i < text.size()) {
        int32_t node = 0, best = -1;
        size_t bestLen = 0;
        for (size_t j = i; j < text.size(); ++j) {
            node = child(node, static_cast<uint8_t>(text[j]));
            if (node < 0) break;
            const int32_t e = nodes_[static_cast<size_t>(node)].entry;
            if (e >= 0 && (parseSpecial || !entries_[static_cast<size_t>(e)].special)) {
                best = e;
                bestLen = j + 1 - i;
            }
        }
        if (best < 0) {
            ++i;
            continue;
        }
        if (i > textStart) out.push_back({-1, text.substr(textStart, i - textStart)});
        out.push_back({entries_[static_cast<size_t>(best)].id, text.substr(i, bestLen)});
        i += bestLen;
        textStart = i;
    }
    if (textStart < text.size()) out.push_back({-1, text.substr(textStart)});

    if (entries_.empty()) return;
    // lstrip/rstrip: a token swallows the whitespace beside it.
    auto entryOf = [&](const Fragment& f) -> const Entry* {
        if (f.id < 0) return nullptr;
        int32_t node = 0;
        for (char c : f.text) node = child(node, static_cast<uint8_t>(c));
        return &entries_[static_cast<size_t>(nodes_[static_cast<size_t>(node)].entry)];
    };
    for (size_t k = first; k < out.size(); ++k) {
        const Entry* e = entryOf(out[k]);
        if (!e) continue;
        if (e->lstrip && k > first && out[k - 1].id < 0) {
            auto& t = out[k - 1].text;
            while (!t.empty() && isSpace(t.back())) t.remove_suffix(1);
        }
        if (e->rstrip && k + 1 < out.size() && out[k + 1].id < 0) {
            auto& t = out[k + 1].text;
            while (!t.empty() && isSpace(t.front())) t.remove_prefix(1);
        }
    }
    out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                             [](const Fragment& f) { return f.id < 0 && f.text.empty(); }),
              out.end());
}

}  // namespace hearth
