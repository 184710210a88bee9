#pragma once
// The load dialog's device list: each detected GPU with name, total/free memory, utilization and
// temperature (live, from the GPU monitor), a "use" check box and a slider for its share of the
// GPU layers. No GPU is a normal state: the table then says the model runs on the CPU.
//
// Invariants: one row per GPU of the last snapshot, in NVML index order; the user's choices
// (use, share) survive snapshot updates for GPUs that are still there; GUI thread only.

#include <QList>
#include <QWidget>

#include "gpu/GpuSnapshot.h"
#include "host/MemoryEstimate.h"

class QLabel;
class QTableWidget;

namespace hearth::ui {

class GpuSelectionTable : public QWidget {
    Q_OBJECT
public:
    enum Column { Use, Name, Total, Free, Utilization, Temperature, Share, ColumnCount };

    explicit GpuSelectionTable(QWidget* parent = nullptr);

    void setSnapshot(const app::GpuSnapshot& snapshot);
    int gpuCount() const { return int(gpus_.size()); }
    // The checked GPUs, in index order, with their current free memory.
    QList<app::DeviceCapacity> selectedGpus() const;
    // Their slider values (relative shares), aligned with selectedGpus().
    QList<double> selectedShares() const;
    // Test and tour hooks.
    void setUsed(int gpuIndex, bool used);
    void setShare(int gpuIndex, int percent);
    void retranslate();

signals:
    void selectionChanged();

private:
    void rebuild();
    void refreshValues();

    QTableWidget* table_ = nullptr;
    QLabel* empty_ = nullptr;
    QList<app::GpuDevice> gpus_;
    QList<bool> used_;
    QList<int> shares_;
};

}  // namespace hearth::ui
