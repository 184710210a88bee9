#include "tokenizer/PreTokenizer.h"

#include "tokenizer/ByteLevelAlphabet.h"

namespace hearth {

void PreTokenizer::applyStage(const Stage& st, std::string_view piece, std::vector<std::string_view>& out,
                              std::vector<Regex::Span>& m) {
    m.clear();
    if (st.onByteLevelText) {
        // Every raw byte is one mapped character, so mapped match boundaries fall on raw byte
        // boundaries: translate them back through the offset table.
        const auto& alphabet = ByteLevelAlphabet::instance();
        std::string mapped;
        std::vector<uint32_t> rawAt;  // mapped byte offset -> raw byte offset (at char starts)
        mapped.reserve(piece.size() * 2);
        rawAt.reserve(piece.size() * 2 + 1);
        for (size_t i = 0; i < piece.size(); ++i) {
            const std::string& c = alphabet.encodeByte(static_cast<uint8_t>(piece[i]));
            for (size_t k = 0; k < c.size(); ++k) rawAt.push_back(static_cast<uint32_t>(i));
            mapped += c;
        }
        rawAt.push_back(static_cast<uint32_t>(piece.size()));
        st.regex->findAll(mapped, m);
        for (auto& [b, e] : m) {
            b = rawAt[b];
            e = rawAt[e];
        }
    } else {
        st.regex->findAll(piece, m);
    }
    auto emit = [&](size_t b, size_t e) {
        if (e > b) out.push_back(piece.substr(b, e - b));
    };
    if (st.invert) {
        for (auto [b, e] : m) emit(b, e);
        return;
    }
    size_t prev = 0;  // end of what has been emitted (or, for MergedWithNext, start of the open piece)
    switch (st.behavior) {
    case SplitBehavior::Isolated:
        for (auto [b, e] : m) {
            emit(prev, b);
            emit(b, e);
            prev = e;
        }
        break;
    case SplitBehavior::Removed:
        for (auto [b, e] : m) {
            emit(prev, b);
            prev = e;
        }
        break;
    case SplitBehavior::MergedWithPrevious:
        for (auto [b, e] : m) {
            emit(prev, e);
            prev = e;
        }
        break;
    case SplitBehavior::MergedWithNext:
        for (auto [b, e] : m) {
            emit(prev, b);
            prev = b;
        }
        break;
    case SplitBehavior::Contiguous:
        for (size_t i = 0; i < m.size();) {
            size_t j = i;
            while (j + 1 < m.size() && m[j + 1].first == m[j].second) ++j;
            emit(prev, m[i].first);
            emit(m[i].first, m[j].second);
            prev = m[j].second;
            i = j + 1;
        }
        break;
    }
    emit(prev, piece.size());
}

void PreTokenizer::split(std::string_view text, std::vector<std::string_view>& out) const {
    if (text.empty()) return;
    if (stages_.empty()) {
        out.push_back(text);
        return;
    }
    std::vector<Regex::Span> scratch;
    std::vector<std::string_view> cur{text}, next;
    for (const Stage& st : stages_) {
        next.clear();
        for (std::string_view p : cur) applyStage(st, p, next, scratch);
        cur.swap(next);
    }
    out.insert(out.end(), cur.begin(), cur.end());
}

}  // namespace hearth
