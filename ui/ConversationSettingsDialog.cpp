#include "ConversationSettingsDialog.h"
#include "WidgetHelpers.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>

namespace hearth::ui {
namespace {
QDoubleSpinBox* spin(double lo, double hi, double step, int decimals, double value) {
    auto* s = new QDoubleSpinBox;
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(decimals);
    s->setValue(value);
    return s;
}
}  // namespace

ConversationSettingsDialog::ConversationSettingsDialog(const QString& systemPrompt, const app::ChatSampling& s,
                                                       QWidget* parent)
    : QDialog(parent) {
    setObjectName("conversationSettings");
    system_ = new QPlainTextEdit(systemPrompt);
    system_->setObjectName("systemPromptEdit");
    system_->setMinimumHeight(90);
    temperature_ = spin(0, 2, 0.05, 2, s.params.temperature);
    temperature_->setObjectName("temperatureSpin");
    topP_ = spin(0, 1, 0.05, 2, s.params.topP);
    topK_ = new QSpinBox;
    topK_->setRange(0, 1000);
    topK_->setValue(s.params.topK);
    minP_ = spin(0, 1, 0.01, 2, s.params.minP);
    repeat_ = spin(0.5, 2, 0.05, 2, s.params.repeatPenalty);
    maxTokens_ = new QSpinBox;
    maxTokens_->setRange(1, 1 << 20);
    maxTokens_->setValue(s.maxTokens);
    maxTokens_->setObjectName("maxTokensSpin");
    seed_ = new QSpinBox;
    seed_->setRange(-1, std::numeric_limits<int>::max());
    seed_->setValue(s.params.seed == app::ChatSampling{}.params.seed ? -1 : int(s.params.seed));

    form_ = new QFormLayout;
    form_->addRow(QStringLiteral("system"), system_);
    form_->addRow(QStringLiteral("t"), temperature_);
    form_->addRow(QStringLiteral("p"), topP_);
    form_->addRow(QStringLiteral("k"), topK_);
    form_->addRow(QStringLiteral("minp"), minP_);
    form_->addRow(QStringLiteral("rep"), repeat_);
    form_->addRow(QStringLiteral("max"), maxTokens_);
    form_->addRow(QStringLiteral("seed"), seed_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(buttons);
    retranslate();
}

void ConversationSettingsDialog::retranslate() {
    setWindowTitle(tr("Chat settings"));
    setFormLabel(form_, system_, tr("System prompt"));
    setFormLabel(form_, temperature_, tr("Temperature (0 = always the likeliest word)"));
    setFormLabel(form_, topP_, tr("Top-p"));
    setFormLabel(form_, topK_, tr("Top-k (0 = off)"));
    setFormLabel(form_, minP_, tr("Min-p"));
    setFormLabel(form_, repeat_, tr("Repeat penalty (1 = off)"));
    setFormLabel(form_, maxTokens_, tr("Longest reply (tokens)"));
    setFormLabel(form_, seed_, tr("Seed (-1 = random)"));
}

QString ConversationSettingsDialog::systemPrompt() const { return system_->toPlainText(); }

app::ChatSampling ConversationSettingsDialog::sampling() const {
    app::ChatSampling s;
    s.params.temperature = float(temperature_->value());
    s.params.topP = float(topP_->value());
    s.params.topK = topK_->value();
    s.params.minP = float(minP_->value());
    s.params.repeatPenalty = float(repeat_->value());
    s.maxTokens = maxTokens_->value();
    if (seed_->value() >= 0) s.params.seed = uint64_t(seed_->value());
    return s;
}

}  // namespace hearth::ui
