#include "MarkdownView.h"

#include <QAbstractTextDocumentLayout>
#include <QResizeEvent>
#include <QTextDocument>
#include <cmath>

namespace hearth::ui {

MarkdownView::MarkdownView(QWidget* parent) : QTextBrowser(parent) {
    setReadOnly(true);
    setOpenExternalLinks(true);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    viewport()->setAutoFillBackground(false);
    setStyleSheet("QTextBrowser { background: transparent; }");
    document()->setDocumentMargin(2);
}

void MarkdownView::setMarkdownText(const QString& markdown) {
    if (markdown == markdown_ && !document()->isEmpty()) return;
    markdown_ = markdown;
    setMarkdown(markdown);
    updateGeometry();
}

int MarkdownView::heightForWidth(int width) const {
    QTextDocument* doc = document();
    const qreal old = doc->textWidth();
    doc->setTextWidth(width);
    const int h = int(std::ceil(doc->size().height())) + 4;
    doc->setTextWidth(old);
    return h;
}

QSize MarkdownView::sizeHint() const {
    const int w = width() > 0 ? width() : 480;
    return QSize(w, heightForWidth(w));
}

void MarkdownView::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    if (event->size().width() != event->oldSize().width()) updateGeometry();
}

}  // namespace hearth::ui
