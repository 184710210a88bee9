#pragma once
// Load dialog (GPU assignment): the detected GPUs (live), which to use and each one's share of the
// layers, layers kept on the CPU, context length, KV cache type, RAM cache size, parallel users,
// speculative decoding, a live per-device memory estimate, and Load with a progress bar and
// cancel. It fills a hearth::EngineConfig and hands it to the engine host.
//
// Invariants: config() always reflects the widgets; the estimate is recomputed on every change;
// while a load runs the options are disabled and the Cancel button cancels the load (closing the
// dialog cancels it too); the dialog accepts only when the host reports the model loaded.

#include <QDialog>

#include "gpu/GpuSnapshot.h"
#include "hearth/engine.h"
#include "host/MemoryEstimate.h"
#include "library/ModelRecord.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace hearth::app {
class EngineHost;
class GpuMonitor;
}  // namespace hearth::app

namespace hearth::ui {

class GpuSelectionTable;
class MemoryEstimateView;

class LoadDialog : public QDialog {
    Q_OBJECT
public:
    LoadDialog(const app::ModelRecord& model, app::GpuMonitor& gpus, app::EngineHost& host, QWidget* parent = nullptr);
    ~LoadDialog() override;

    hearth::EngineConfig config() const;
    app::MemoryPlanInput planInput() const;
    const app::MemoryEstimate& estimate() const;
    bool isLoading() const { return loading_; }

    // Test and tour hooks for the inputs.
    GpuSelectionTable* gpuTable() const { return gpuTable_; }
    void setContextLength(int tokens);
    void setParallelUsers(int n);
    void setKvType(hearth::KvDType type);
    void setCpuLayers(int n);
    void setRamCacheGiB(double gib);  // a fixed size (turns "Automatic" off)
    quint64 ramCacheBytes() const;    // what the estimate counts for the RAM tier

    // Starts the load (what the Load button does).
    void startLoad();

protected:
    void changeEvent(QEvent* event) override;
    void reject() override;

private:
    void retranslate();
    void buildOptions();
    void updateEstimate();
    void updateSpecWidgets();
    void setLoading(bool loading);
    void onSnapshot(const app::GpuSnapshot& snapshot);
    void onLoadFailed(const QString& message, bool cancelled);

    app::ModelRecord model_;
    app::GpuMonitor& gpus_;
    app::EngineHost& host_;
    app::GpuSnapshot snapshot_;
    bool loading_ = false;

    QLabel* modelLabel_ = nullptr;
    QGroupBox* devicesBox_ = nullptr;
    GpuSelectionTable* gpuTable_ = nullptr;
    QGroupBox* optionsBox_ = nullptr;
    QFormLayout* form_ = nullptr;
    QSlider* cpuLayersSlider_ = nullptr;
    QSpinBox* cpuLayers_ = nullptr;
    QSpinBox* context_ = nullptr;
    QComboBox* kvType_ = nullptr;
    QDoubleSpinBox* ramCache_ = nullptr;
    QCheckBox* ramAuto_ = nullptr;
    QSpinBox* parallel_ = nullptr;
    QGroupBox* specBox_ = nullptr;
    QFormLayout* specForm_ = nullptr;
    QComboBox* specMethod_ = nullptr;
    QLineEdit* specPath_ = nullptr;
    QToolButton* specBrowse_ = nullptr;
    QSpinBox* specMaxDraft_ = nullptr;
    QGroupBox* estimateBox_ = nullptr;
    MemoryEstimateView* estimateView_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
    QPushButton* loadButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
};

}  // namespace hearth::ui
