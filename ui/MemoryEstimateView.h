#pragma once
// Shows a MemoryEstimate: per device, the layers placed there, weights, KV cache, other
// (runtime, activations, RAM tier), what that needs against what is free, and whether it fits,
// with a summary line. Updated live by the load dialog.

#include <QWidget>

#include "host/MemoryEstimate.h"

class QLabel;
class QTableWidget;

namespace hearth::ui {

class MemoryEstimateView : public QWidget {
    Q_OBJECT
public:
    enum Column { Device, Layers, Weights, KvCache, Other, Needed, Available, Fits, ColumnCount };

    explicit MemoryEstimateView(QWidget* parent = nullptr);
    void setEstimate(const app::MemoryEstimate& estimate);
    const app::MemoryEstimate& estimate() const { return estimate_; }
    void retranslate();

private:
    void refresh();
    QTableWidget* table_ = nullptr;
    QLabel* summary_ = nullptr;
    app::MemoryEstimate estimate_;
};

}  // namespace hearth::ui
