#pragma once
// Edits one model's chat template: the Jinja source the library stores for it (shown with the
// template from the GGUF file when there is no override yet). Save parses the text first and
// refuses a template that does not parse, with the parser's message (construct and position);
// "Use the model's own" clears the override.
//
// Invariant: templateSource() is what the user accepted: empty for "the file's own", otherwise a
// template that ChatTemplate::parse accepted.

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace hearth::ui {

class ChatTemplateDialog : public QDialog {
    Q_OBJECT
public:
    // override: the library's current override ('' = none); fileTemplate: the GGUF's own ('' = none).
    ChatTemplateDialog(const QString& modelName, const QString& override, const QString& fileTemplate,
                       QWidget* parent = nullptr);

    QString templateSource() const { return result_; }
    QPlainTextEdit* editor() const { return editor_; }
    QString error() const;

    // The button handlers (tests call these): false when the text does not parse.
    bool save();
    void useModelsOwn();

private:
    QString fileTemplate_;
    QString result_;
    QPlainTextEdit* editor_ = nullptr;
    QLabel* error_ = nullptr;
    QPushButton* save_ = nullptr;
    QPushButton* reset_ = nullptr;
};

}  // namespace hearth::ui
