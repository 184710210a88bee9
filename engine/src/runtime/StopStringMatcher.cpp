#include "runtime/StopStringMatcher.h"

#include <algorithm>

namespace hearth {

StopStringMatcher::StopStringMatcher(std::vector<std::string> stops) {
    for (auto& s : stops)
        if (!s.empty()) stops_.push_back(std::move(s));
}

std::string StopStringMatcher::push(std::string_view text) {
    if (matched_) return {};
    if (stops_.empty()) return std::string(text);
    held_.append(text);
    // Earliest complete stop string: everything before it is output, the rest is dropped.
    size_t cut = std::string::npos;
    for (const auto& s : stops_) cut = std::min(cut, held_.find(s));
    if (cut != std::string::npos) {
        matched_ = true;
        std::string out = held_.substr(0, cut);
        held_.clear();
        return out;
    }
    // Keep the longest suffix that a later push could extend into a stop string.
    size_t keep = 0;
    for (const auto& s : stops_) {
        for (size_t l = std::min(s.size() - 1, held_.size()); l > keep; --l) {
            if (held_.compare(held_.size() - l, l, s, 0, l) == 0) {
                keep = l;
                break;
            }
        }
    }
    std::string out = held_.substr(0, held_.size() - keep);
    held_.erase(0, held_.size() - keep);
    return out;
}

std::string StopStringMatcher::flush() {
    if (matched_) return {};
    std::string out;
    out.swap(held_);
    return out;
}

}  // namespace hearth
