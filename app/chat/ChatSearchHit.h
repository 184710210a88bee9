#pragma once
// One search result: a message (or a conversation title) that matches, with a short excerpt in
// which the matching words are wrapped in [ and ].
#include <QString>

namespace hearth::app {

struct ChatSearchHit {
    QString conversationId;
    QString conversationTitle;
    QString messageId;  // empty when the title matched
    QString snippet;
};

}  // namespace hearth::app
