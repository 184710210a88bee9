#include "WidgetHelpers.h"

#include <QFormLayout>
#include <QLabel>

namespace hearth::ui {

QLabel* makeHeading(QWidget* parent, double scale, const char* objectName) {
    auto* label = new QLabel(parent);
    if (objectName) label->setObjectName(QString::fromLatin1(objectName));
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * scale);
    f.setBold(true);
    label->setFont(f);
    return label;
}

void setFormLabel(QFormLayout* form, QWidget* field, const QString& text) {
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(field))) label->setText(text);
}

}  // namespace hearth::ui
