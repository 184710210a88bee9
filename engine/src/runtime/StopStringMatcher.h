#pragma once
// Holds generated text back while it could still be the start of a stop string, and cuts the
// output where a stop string appears (the stop string itself is never released).
//
// Invariants: held() is always shorter than the longest stop string and is a suffix of the text
// pushed so far that equals a proper prefix of some stop string; released text never contains a
// stop string nor any prefix of one that a later push could complete; once matched(), push()
// releases nothing more. With valid UTF-8 input and stop strings, released pieces end on
// character boundaries.

#include <string>
#include <string_view>
#include <vector>

namespace hearth {

class StopStringMatcher {
public:
    explicit StopStringMatcher(std::vector<std::string> stops);

    // Appends text and returns what can be released now.
    std::string push(std::string_view text);
    // At the end of generation: releases the held-back text (it can no longer become a stop).
    std::string flush();

    bool matched() const { return matched_; }
    const std::string& held() const { return held_; }
    bool active() const { return !stops_.empty(); }

private:
    std::vector<std::string> stops_;
    std::string held_;
    bool matched_ = false;
};

}  // namespace hearth
