#include "ChatTemplateDialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "hearth/chat_template.h"

namespace hearth::ui {

ChatTemplateDialog::ChatTemplateDialog(const QString& modelName, const QString& override, const QString& fileTemplate,
                                       QWidget* parent)
    : QDialog(parent), fileTemplate_(fileTemplate), result_(override) {
    setObjectName("chatTemplateDialog");
    setWindowTitle(tr("Chat template: %1").arg(modelName));
    auto* intro = new QLabel(override.isEmpty()
                                 ? tr("This model uses the chat template in its file. Edit it here to use your own.")
                                 : tr("This model uses your chat template instead of the one in its file."),
                             this);
    intro->setWordWrap(true);
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName("chatTemplateEditor");
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setPlainText(override.isEmpty() ? fileTemplate : override);
    error_ = new QLabel(this);
    error_->setObjectName("chatTemplateError");
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #b3261e");
    error_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    save_ = buttons->addButton(tr("Save"), QDialogButtonBox::AcceptRole);
    reset_ = buttons->addButton(tr("Use the model's own"), QDialogButtonBox::ResetRole);
    reset_->setEnabled(!override.isEmpty());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(editor_, 1);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    connect(save_, &QPushButton::clicked, this, [this] {
        if (save()) accept();
    });
    connect(reset_, &QPushButton::clicked, this, [this] {
        useModelsOwn();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(720, 520);
}

QString ChatTemplateDialog::error() const { return error_->isHidden() ? QString() : error_->text(); }

bool ChatTemplateDialog::save() {
    const QString text = editor_->toPlainText();
    // The file's own template, unchanged, is no override at all.
    if (text == fileTemplate_) {
        result_.clear();
        return true;
    }
    const std::string source = text.toStdString();
    auto parsed = ChatTemplate::parse(source);
    if (!parsed) {
        error_->setText(tr("This template does not parse: %1").arg(QString::fromStdString(parsed.error().message)));
        error_->show();
        return false;
    }
    error_->hide();
    result_ = text;
    return true;
}

void ChatTemplateDialog::useModelsOwn() { result_.clear(); }

}  // namespace hearth::ui
