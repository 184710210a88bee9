#include "FitTargetBar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "Formatting.h"

namespace hearth::ui {

FitTargetBar::FitTargetBar(QWidget* parent) : QWidget(parent) {
    contextLabel_ = new QLabel(this);
    context_ = new QSpinBox(this);
    context_->setObjectName("fitContextSpin");
    context_->setRange(256, 1 << 20);
    context_->setSingleStep(1024);
    context_->setValue(8192);
    usersLabel_ = new QLabel(this);
    users_ = new QSpinBox(this);
    users_->setObjectName("fitUsersSpin");
    users_->setRange(1, 256);
    users_->setValue(1);
    onLabel_ = new QLabel(this);
    cpuOnly_ = new QLabel(this);
    cpuOnly_->setObjectName("fitCpuOnly");
    gpuBoxes_ = new QHBoxLayout;
    gpuBoxes_->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(contextLabel_);
    layout->addWidget(context_);
    layout->addWidget(usersLabel_);
    layout->addWidget(users_);
    layout->addSpacing(12);
    layout->addWidget(onLabel_);
    layout->addLayout(gpuBoxes_);
    layout->addWidget(cpuOnly_);
    layout->addStretch();
    connect(context_, &QSpinBox::valueChanged, this, &FitTargetBar::changed);
    connect(users_, &QSpinBox::valueChanged, this, &FitTargetBar::changed);
    retranslate();
}

void FitTargetBar::retranslate() {
    contextLabel_->setText(tr("Context:"));
    usersLabel_->setText(tr("Users:"));
    onLabel_->setText(tr("Fits on:"));
    cpuOnly_->setText(snapshot_.gpus.isEmpty() ? tr("system RAM (no GPU found)") : tr("system RAM when no GPU is checked"));
    for (int i = 0; i < checks_.size() && i < snapshot_.gpus.size(); ++i)
        checks_[i]->setToolTip(tr("%1 free of %2").arg(formatBytes(snapshot_.gpus[i].freeBytes),
                                                       formatBytes(snapshot_.gpus[i].totalBytes)));
}

void FitTargetBar::setSnapshot(const app::GpuSnapshot& snapshot) {
    bool same = snapshot.gpus.size() == snapshot_.gpus.size();
    for (int i = 0; same && i < snapshot.gpus.size(); ++i) same = snapshot.gpus[i].name == snapshot_.gpus[i].name;
    snapshot_ = snapshot;
    if (!same) {
        qDeleteAll(checks_);
        checks_.clear();
        for (const auto& g : snapshot.gpus) {
            auto* check = new QCheckBox(QStringLiteral("%1: %2").arg(g.index).arg(g.name), this);
            check->setObjectName(QStringLiteral("fitGpu%1").arg(g.index));
            check->setChecked(true);
            connect(check, &QCheckBox::toggled, this, &FitTargetBar::changed);
            gpuBoxes_->addWidget(check);
            checks_.append(check);
        }
    }
    retranslate();
    emit changed();
}

int FitTargetBar::contextLength() const { return context_->value(); }
void FitTargetBar::setContextLength(int tokens) { context_->setValue(tokens); }
int FitTargetBar::parallelUsers() const { return users_->value(); }

QList<quint64> FitTargetBar::selectedGpuFreeBytes() const {
    QList<quint64> out;
    for (int i = 0; i < checks_.size() && i < snapshot_.gpus.size(); ++i)
        if (checks_[i]->isChecked()) out.append(snapshot_.gpus[i].freeBytes);
    return out;
}

QString FitTargetBar::targetDescription() const {
    const auto n = selectedGpuFreeBytes().size();
    return n == 0 ? tr("system RAM") : tr("%n GPU(s)", nullptr, int(n));
}

}  // namespace hearth::ui
