#pragma once
// One message of the chat transcript: who wrote it, its text as markdown, and for replies the
// token counts, tokens per second and how the reply ended; Edit on the user's messages
// (edit-and-resend), Copy on every message.

#include <QFrame>

#include "chat/ChatMessage.h"

class QLabel;
class QToolButton;

namespace hearth::ui {

class MarkdownView;

class ChatMessageWidget : public QFrame {
    Q_OBJECT
public:
    explicit ChatMessageWidget(const app::ChatMessage& message, QWidget* parent = nullptr);

    void setMessage(const app::ChatMessage& message, bool streaming = false);
    const app::ChatMessage& message() const { return message_; }
    QString renderedMarkdown() const;
    QString footerText() const;
    void retranslate();

signals:
    void editRequested(int position);

protected:
    void changeEvent(QEvent* event) override;

private:
    app::ChatMessage message_;
    bool streaming_ = false;
    QLabel* role_ = nullptr;
    QToolButton* edit_ = nullptr;
    QToolButton* copy_ = nullptr;
    MarkdownView* body_ = nullptr;
    QLabel* footer_ = nullptr;
};

}  // namespace hearth::ui
