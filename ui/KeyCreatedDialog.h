#pragma once
// Shows a newly created API key exactly once, with a Copy button: Hearth keeps only a hash of it,
// so the user must copy it now and hand it to the colleague.

#include <QDialog>

class QLineEdit;

namespace hearth::ui {

class KeyCreatedDialog : public QDialog {
    Q_OBJECT
public:
    KeyCreatedDialog(const QString& name, const QString& key, QWidget* parent = nullptr);
    bool copied() const { return copied_; }

private:
    QLineEdit* key_ = nullptr;
    bool copied_ = false;
};

}  // namespace hearth::ui
