#pragma once
// A read-only, selectable block of markdown (QTextDocument's CommonMark/GitHub dialect) that is
// exactly as tall as its text at the current width, for stacking messages in a scroll area.

#include <QTextBrowser>

namespace hearth::ui {

class MarkdownView : public QTextBrowser {
    Q_OBJECT
public:
    explicit MarkdownView(QWidget* parent = nullptr);

    // Re-renders only when the text changed (streaming calls this many times a second).
    void setMarkdownText(const QString& markdown);
    QString markdownText() const { return markdown_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QString markdown_;
};

}  // namespace hearth::ui
