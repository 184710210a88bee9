#pragma once
// The messages of one conversation, stacked in a scroll area. setMessages() reuses the widgets of
// messages that are still there (by id), so a reload while a reply streams does not flicker; the
// view follows the end of a streaming reply while the user has not scrolled away from it.

#include <QHash>
#include <QList>
#include <QScrollArea>

#include "chat/ChatMessage.h"

class QVBoxLayout;

namespace hearth::ui {

class ChatMessageWidget;

class ChatTranscriptView : public QScrollArea {
    Q_OBJECT
public:
    explicit ChatTranscriptView(QWidget* parent = nullptr);

    // `streamingId`: the message being generated (rendered with a cursor), or empty.
    void setMessages(const QList<app::ChatMessage>& messages, const QString& streamingId);
    // Updates one message's text and figures in place.
    void updateMessage(const app::ChatMessage& message, bool streaming);
    QList<ChatMessageWidget*> messageWidgets() const { return widgets_; }
    ChatMessageWidget* widgetFor(const QString& messageId) const { return byId_.value(messageId); }

signals:
    void editRequested(int position);

private:
    bool atBottom() const;
    void scrollToBottomSoon();

    QWidget* content_ = nullptr;
    QVBoxLayout* layout_ = nullptr;
    QList<ChatMessageWidget*> widgets_;
    QHash<QString, ChatMessageWidget*> byId_;
};

}  // namespace hearth::ui
