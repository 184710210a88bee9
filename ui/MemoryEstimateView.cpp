#include "MemoryEstimateView.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "Formatting.h"

namespace hearth::ui {

MemoryEstimateView::MemoryEstimateView(QWidget* parent) : QWidget(parent) {
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName("estimateTable");
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Device, QHeaderView::Stretch);
    summary_ = new QLabel(this);
    summary_->setObjectName("estimateSummary");
    summary_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    layout->addWidget(summary_);
    retranslate();
}

void MemoryEstimateView::retranslate() {
    table_->setHorizontalHeaderLabels({tr("Device"), tr("Layers"), tr("Weights"), tr("KV cache"), tr("Other"),
                                       tr("Needed"), tr("Free"), tr("Fits")});
    refresh();
}

void MemoryEstimateView::setEstimate(const app::MemoryEstimate& estimate) {
    estimate_ = estimate;
    refresh();
}

void MemoryEstimateView::refresh() {
    table_->setRowCount(int(estimate_.devices.size()));
    for (int row = 0; row < estimate_.devices.size(); ++row) {
        const app::DeviceEstimate& d = estimate_.devices[row];
        const QString name = d.device < 0 ? tr("CPU (system RAM)") : QStringLiteral("%1: %2").arg(d.device).arg(d.name);
        const QString layers = d.layerCount() > 0 ? QStringLiteral("%1–%2").arg(d.firstLayer).arg(d.lastLayer - 1)
                                                  : QStringLiteral("—");
        const QStringList cells = {name,
                                   layers,
                                   formatBytes(d.weights),
                                   formatBytes(d.kvCache),
                                   formatBytes(d.overhead + d.ramCache),
                                   formatBytes(d.needed()),
                                   formatBytes(d.available),
                                   d.fits() ? tr("yes") : tr("no")};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == Fits) item->setForeground(d.fits() ? QColor(0x2e, 0x7d, 0x32) : QColor(0xb3, 0x26, 0x1e));
            table_->setItem(row, c, item);
        }
    }
    if (estimate_.devices.isEmpty()) {
        summary_->clear();
        return;
    }
    summary_->setText(estimate_.fits ? tr("Estimated total: %1. It fits.").arg(formatBytes(estimate_.totalNeeded()))
                                     : tr("Estimated total: %1. It does not fit: lower the context length or the "
                                          "number of parallel users, pick a smaller KV type, or move layers.")
                                           .arg(formatBytes(estimate_.totalNeeded())));
    summary_->setStyleSheet(estimate_.fits ? QString() : QStringLiteral("color: #b3261e"));
}

}  // namespace hearth::ui
