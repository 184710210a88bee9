#pragma once
// A conversation's system prompt and sampling settings (temperature, top-p, top-k, min-p,
// repeat penalty, reply length, seed), edited before they go to the chat store.

#include <QDialog>

#include "host/ChatSampling.h"

class QDoubleSpinBox;
class QFormLayout;
class QPlainTextEdit;
class QSpinBox;

namespace hearth::ui {

class ConversationSettingsDialog : public QDialog {
    Q_OBJECT
public:
    ConversationSettingsDialog(const QString& systemPrompt, const app::ChatSampling& sampling, QWidget* parent = nullptr);

    QString systemPrompt() const;
    app::ChatSampling sampling() const;

private:
    void retranslate();
    QFormLayout* form_ = nullptr;
    QPlainTextEdit* system_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QDoubleSpinBox* topP_ = nullptr;
    QSpinBox* topK_ = nullptr;
    QDoubleSpinBox* minP_ = nullptr;
    QDoubleSpinBox* repeat_ = nullptr;
    QSpinBox* maxTokens_ = nullptr;
    QSpinBox* seed_ = nullptr;
};

}  // namespace hearth::ui
