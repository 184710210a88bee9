#pragma once
// Discover's "fits on" controls: the context length and parallel users to plan for, and which of
// the detected GPUs to count (none checked, or none present: the host's RAM). Emits changed()
// whenever the answer could change (the user's choices or a new GPU snapshot).
//
// Invariant: one check box per GPU of the last snapshot, in index order; choices survive a
// snapshot with the same GPUs.

#include <QList>
#include <QWidget>

#include "gpu/GpuSnapshot.h"

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;

namespace hearth::ui {

class FitTargetBar : public QWidget {
    Q_OBJECT
public:
    explicit FitTargetBar(QWidget* parent = nullptr);

    void setSnapshot(const app::GpuSnapshot& snapshot);
    int contextLength() const;
    void setContextLength(int tokens);
    int parallelUsers() const;
    QList<quint64> selectedGpuFreeBytes() const;  // empty: plan for RAM
    quint64 hostAvailableBytes() const { return snapshot_.host.availableBytes; }
    QString targetDescription() const;  // "2 GPUs", "RAM"
    void retranslate();

signals:
    void changed();

private:
    QLabel* contextLabel_ = nullptr;
    QSpinBox* context_ = nullptr;
    QLabel* usersLabel_ = nullptr;
    QSpinBox* users_ = nullptr;
    QLabel* onLabel_ = nullptr;
    QLabel* cpuOnly_ = nullptr;
    QHBoxLayout* gpuBoxes_ = nullptr;
    QList<QCheckBox*> checks_;
    app::GpuSnapshot snapshot_;
};

}  // namespace hearth::ui
