#include "tokenizer/Normalizer.h"


namespace hearth {
namespace {

std::string replaceAll(std::string_view s, std::string_view from, std::string_view to) {
    if (from.empty()) return std::string(s);
    std::string out;
    out.reserve(s.size());
    size_t pos = 0;
    while (true) {
        const size_t hit = s.find(from, pos);
        if (hit == std::string_view::npos) break;
        out.append(s.substr(pos, hit - pos));
        out.append(to);
        pos = hit + from.size();
    }
    out.append(s.substr(pos));
    return out;
}

// Replaces each match with `to`, or (pad) surrounds it with spaces.
std::string replaceRegex(std::string_view s, const Regex& re, std::string_view to, bool pad = false) {
    std::vector<Regex::Span> m;
    re.findAll(s, m);
    if (m.empty()) return std::string(s);
    std::string out;
    size_t pos = 0;
    for (auto [b, e] : m) {
        out.append(s.substr(pos, b - pos));
        if (pad) {
            out += ' ';
            out.append(s.substr(b, e - b));
            out += ' ';
        } else {
            out.append(to);
        }
        pos = e;
    }
    out.append(s.substr(pos));
    return out;
}

bool isAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

}  // namespace

std::string Normalizer::apply(std::string_view text, size_t section) const {
    std::string cur(text);
    for (const Step& st : steps_) {
        switch (st.kind) {
        case Kind::Prepend:
            if (cur.empty() || (st.firstSectionOnly && section != 0)) break;
            if (st.unlessPresent && std::string_view(cur).starts_with(st.text)) break;
            cur = st.text + cur;
            break;
        case Kind::ReplaceString: cur = replaceAll(cur, st.text, st.content); break;
        case Kind::ReplaceRegex: cur = replaceRegex(cur, *st.regex, st.content); break;
        case Kind::PadMatches: cur = replaceRegex(cur, *st.regex, {}, true); break;
        case Kind::Form: cur = UnicodeForms::normalize(cur, st.form); break;
        case Kind::Lowercase: cur = UnicodeForms::lowercase(cur); break;
        case Kind::Strip: {
            size_t b = 0, e = cur.size();
            if (st.left) while (b < e && isAsciiSpace(cur[b])) ++b;
            if (st.right) while (e > b && isAsciiSpace(cur[e - 1])) --e;
            cur = cur.substr(b, e - b);
            break;
        }
        }
    }
    return cur;
}

}  // namespace hearth
