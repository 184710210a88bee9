#pragma once
// Base of the main window's pages: a translated title for the navigation list and a
// retranslate() that re-sets every visible string, called once by each subclass's constructor
// and again whenever the language changes at run time (QEvent::LanguageChange).

#include <QWidget>

namespace hearth::ui {

class Page : public QWidget {
    Q_OBJECT
public:
    explicit Page(QWidget* parent = nullptr) : QWidget(parent) {}
    virtual QString title() const = 0;
    virtual void retranslate() = 0;
    // Called when the page becomes the visible one.
    virtual void activated() {}

signals:
    void titleChanged();

protected:
    void changeEvent(QEvent* event) override;
};

}  // namespace hearth::ui
