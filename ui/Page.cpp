#include "Page.h"

#include <QEvent>

namespace hearth::ui {

void Page::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        emit titleChanged();
    }
    QWidget::changeEvent(event);
}

}  // namespace hearth::ui
