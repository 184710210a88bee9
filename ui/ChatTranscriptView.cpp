#include "ChatTranscriptView.h"

#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include "ChatMessageWidget.h"

namespace hearth::ui {

ChatTranscriptView::ChatTranscriptView(QWidget* parent) : QScrollArea(parent) {
    setObjectName("chatTranscript");
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    content_ = new QWidget;
    layout_ = new QVBoxLayout(content_);
    layout_->setContentsMargins(12, 12, 12, 12);
    layout_->setSpacing(8);
    layout_->addStretch();
    setWidget(content_);
}

bool ChatTranscriptView::atBottom() const {
    const QScrollBar* bar = verticalScrollBar();
    return bar->value() >= bar->maximum() - 24;
}

void ChatTranscriptView::scrollToBottomSoon() {
    // After the layout has taken the new heights into account.
    QTimer::singleShot(0, this, [this] { verticalScrollBar()->setValue(verticalScrollBar()->maximum()); });
}

void ChatTranscriptView::setMessages(const QList<app::ChatMessage>& messages, const QString& streamingId) {
    const bool follow = atBottom() || widgets_.isEmpty();
    QHash<QString, ChatMessageWidget*> keep;
    QList<ChatMessageWidget*> ordered;
    for (const app::ChatMessage& m : messages) {
        ChatMessageWidget* w = byId_.take(m.id);
        if (!w) {
            w = new ChatMessageWidget(m, content_);
            connect(w, &ChatMessageWidget::editRequested, this, &ChatTranscriptView::editRequested);
        }
        w->setMessage(m, m.id == streamingId);
        keep.insert(m.id, w);
        ordered.append(w);
    }
    for (ChatMessageWidget* gone : std::as_const(byId_)) gone->deleteLater();
    byId_ = keep;
    widgets_ = ordered;
    // Re-insert in order in front of the final stretch.
    for (ChatMessageWidget* w : widgets_) layout_->removeWidget(w);
    for (int i = 0; i < widgets_.size(); ++i) layout_->insertWidget(i, widgets_[i]);
    if (follow) scrollToBottomSoon();
}

void ChatTranscriptView::updateMessage(const app::ChatMessage& message, bool streaming) {
    ChatMessageWidget* w = byId_.value(message.id);
    if (!w) return;
    const bool follow = atBottom();
    w->setMessage(message, streaming);
    if (follow) scrollToBottomSoon();
}

}  // namespace hearth::ui
