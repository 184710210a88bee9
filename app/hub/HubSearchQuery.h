#pragma once
// What to search the hub for. Sorting is descending (most first).
#include <QString>

namespace hearth::app {

struct HubSearchQuery {
    enum class Sort { Downloads, Likes, Trending, LastModified };
    QString text;
    Sort sort = Sort::Downloads;
    int limit = 30;         // 1..100
    bool ggufOnly = true;   // filter=gguf
};

}  // namespace hearth::app
