#include "KeyCreatedDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hearth::ui {

KeyCreatedDialog::KeyCreatedDialog(const QString& name, const QString& key, QWidget* parent) : QDialog(parent) {
    setObjectName("keyCreatedDialog");
    setWindowTitle(tr("New API key"));
    auto* text = new QLabel(tr("The key <b>%1</b> was created. Copy it now and give it to whoever will use it: "
                               "Hearth keeps only a fingerprint of it and cannot show it again.")
                                .arg(name.toHtmlEscaped()),
                            this);
    text->setWordWrap(true);
    key_ = new QLineEdit(key, this);
    key_->setObjectName("newKeyEdit");
    key_->setReadOnly(true);
    key_->setMinimumWidth(520);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName("copyKeyButton");
    connect(copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(key_->text());
        copied_ = true;
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(key_);
    layout->addWidget(buttons);
}

}  // namespace hearth::ui
