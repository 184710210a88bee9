#include "ChatMessageWidget.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

#include "MarkdownView.h"

namespace hearth::ui {

ChatMessageWidget::ChatMessageWidget(const app::ChatMessage& message, QWidget* parent) : QFrame(parent) {
    setObjectName("chatMessage");
    role_ = new QLabel(this);
    QFont bold = role_->font();
    bold.setBold(true);
    role_->setFont(bold);
    edit_ = new QToolButton(this);
    edit_->setObjectName("editMessageButton");
    edit_->setAutoRaise(true);
    copy_ = new QToolButton(this);
    copy_->setAutoRaise(true);
    body_ = new MarkdownView(this);
    body_->setObjectName("messageBody");
    footer_ = new QLabel(this);
    footer_->setObjectName("messageFooter");
    footer_->setStyleSheet("color: palette(mid)");

    auto* header = new QHBoxLayout;
    header->addWidget(role_);
    header->addStretch();
    header->addWidget(edit_);
    header->addWidget(copy_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(body_);
    layout->addWidget(footer_);

    connect(edit_, &QToolButton::clicked, this, [this] { emit editRequested(message_.position); });
    connect(copy_, &QToolButton::clicked, this, [this] { QApplication::clipboard()->setText(message_.content); });
    setMessage(message);
}

void ChatMessageWidget::setMessage(const app::ChatMessage& message, bool streaming) {
    message_ = message;
    streaming_ = streaming;
    const bool user = message.role == QLatin1String("user");
    setStyleSheet(user ? "#chatMessage { background: palette(alternate-base); border-radius: 8px; }"
                       : "#chatMessage { border-radius: 8px; }");
    edit_->setVisible(user);
    body_->setMarkdownText(renderedMarkdown());
    retranslate();
}

QString ChatMessageWidget::renderedMarkdown() const {
    // A streaming reply may end inside a code fence; close it so the rest does not render as code.
    QString text = message_.content;
    if (streaming_ && text.count(QStringLiteral("```")) % 2 == 1) text += QStringLiteral("\n```");
    if (streaming_) text += QStringLiteral(" ▍");
    return text;
}

QString ChatMessageWidget::footerText() const {
    if (message_.role != QLatin1String("assistant")) return {};
    QStringList parts;
    if (message_.promptTokens > 0) parts << tr("%n prompt token(s)", nullptr, message_.promptTokens);
    parts << tr("%n token(s)", nullptr, message_.completionTokens);
    if (message_.tokensPerSecond > 0)
        parts << tr("%1 tok/s").arg(QLocale().toString(message_.tokensPerSecond, 'f', 1));
    if (streaming_)
        parts << tr("generating…");
    else if (message_.finishReason == QLatin1String("length"))
        parts << tr("stopped at the length limit");
    else if (message_.finishReason == QLatin1String("cancelled"))
        parts << tr("stopped");
    else if (message_.finishReason == QLatin1String("error"))
        parts << tr("failed");
    return parts.join(QStringLiteral(" · "));
}

void ChatMessageWidget::retranslate() {
    if (message_.role == QLatin1String("user"))
        role_->setText(tr("You"));
    else if (message_.role == QLatin1String("system"))
        role_->setText(tr("System"));
    else
        role_->setText(tr("Assistant"));
    edit_->setText(tr("Edit"));
    edit_->setToolTip(tr("Edit this message and send it again (the replies after it are replaced)"));
    copy_->setText(tr("Copy"));
    const QString footer = footerText();
    footer_->setText(footer);
    footer_->setVisible(!footer.isEmpty());
}

void ChatMessageWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QFrame::changeEvent(event);
}

}  // namespace hearth::ui
