#pragma once
// Small pieces every page and dialog builds the same way.
#include <QString>

class QFormLayout;
class QLabel;
class QWidget;

namespace hearth::ui {

// A page title: bold, `scale` times the default font size.
QLabel* makeHeading(QWidget* parent, double scale = 1.4, const char* objectName = nullptr);
// Sets the text of the label QFormLayout made for `field` (rows are added with placeholder labels
// and named in retranslate(), so that a language change renames them).
void setFormLabel(QFormLayout* form, QWidget* field, const QString& text);

}  // namespace hearth::ui
