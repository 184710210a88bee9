#include "GpuSelectionTable.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QTableWidget>
#include <QVBoxLayout>

#include "Formatting.h"

namespace hearth::ui {

GpuSelectionTable::GpuSelectionTable(QWidget* parent) : QWidget(parent) {
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName("gpuTable");
    table_->verticalHeader()->hide();
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(Share, QHeaderView::Fixed);
    table_->setColumnWidth(Share, 160);
    empty_ = new QLabel(this);
    empty_->setObjectName("noGpuLabel");
    empty_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(empty_);
    layout->addWidget(table_);
    retranslate();
    rebuild();
}

void GpuSelectionTable::retranslate() {
    table_->setHorizontalHeaderLabels(
        {tr("Use"), tr("GPU"), tr("Total"), tr("Free"), tr("Utilization"), tr("Temperature"), tr("Layer share")});
    empty_->setText(tr("No NVIDIA GPU was found. The model will run on the CPU, which is fine for small "
                       "models."));
    refreshValues();
}

void GpuSelectionTable::setSnapshot(const app::GpuSnapshot& snapshot) {
    bool sameSet = snapshot.gpus.size() == gpus_.size();
    for (int i = 0; sameSet && i < gpus_.size(); ++i)
        sameSet = gpus_[i].index == snapshot.gpus[i].index && gpus_[i].name == snapshot.gpus[i].name;
    if (sameSet) {
        gpus_ = snapshot.gpus;
        refreshValues();
        return;
    }
    QList<bool> used;
    QList<int> shares;
    for (const auto& g : snapshot.gpus) {
        int old = -1;
        for (int i = 0; i < gpus_.size(); ++i)
            if (gpus_[i].index == g.index && gpus_[i].name == g.name) old = i;
        used.append(old >= 0 ? used_[old] : true);
        shares.append(old >= 0 ? shares_[old] : 50);
    }
    gpus_ = snapshot.gpus;
    used_ = used;
    shares_ = shares;
    rebuild();
    emit selectionChanged();
}

void GpuSelectionTable::rebuild() {
    table_->setRowCount(int(gpus_.size()));
    for (int row = 0; row < gpus_.size(); ++row) {
        auto* check = new QCheckBox;
        check->setObjectName(QStringLiteral("useGpu%1").arg(row));
        check->setChecked(used_[row]);
        connect(check, &QCheckBox::toggled, this, [this, row](bool on) {
            used_[row] = on;
            refreshValues();
            emit selectionChanged();
        });
        auto* holder = new QWidget;
        auto* h = new QHBoxLayout(holder);
        h->setContentsMargins(6, 0, 6, 0);
        h->addWidget(check);
        table_->setCellWidget(row, Use, holder);

        auto* slider = new QSlider(Qt::Horizontal);
        slider->setObjectName(QStringLiteral("gpuShare%1").arg(row));
        slider->setRange(1, 100);
        slider->setValue(shares_[row]);
        connect(slider, &QSlider::valueChanged, this, [this, row](int v) {
            shares_[row] = v;
            refreshValues();
            emit selectionChanged();
        });
        table_->setCellWidget(row, Share, slider);
        for (int c : {Name, Total, Free, Utilization, Temperature}) table_->setItem(row, c, new QTableWidgetItem);
    }
    empty_->setVisible(gpus_.isEmpty());
    table_->setVisible(!gpus_.isEmpty());
    refreshValues();
}

void GpuSelectionTable::refreshValues() {
    if (table_->rowCount() != gpus_.size()) return;
    int totalShare = 0;
    for (int i = 0; i < gpus_.size(); ++i)
        if (used_[i]) totalShare += shares_[i];
    for (int row = 0; row < gpus_.size(); ++row) {
        const app::GpuDevice& g = gpus_[row];
        table_->item(row, Name)->setText(g.name);
        table_->item(row, Total)->setText(formatBytes(g.totalBytes));
        table_->item(row, Free)->setText(formatBytes(g.freeBytes));
        table_->item(row, Utilization)->setText(g.utilizationPercent >= 0 ? QStringLiteral("%1 %").arg(g.utilizationPercent)
                                                                          : tr("n/a"));
        table_->item(row, Temperature)->setText(g.temperatureC >= 0 ? QStringLiteral("%1 °C").arg(g.temperatureC)
                                                                    : tr("n/a"));
        if (auto* slider = qobject_cast<QSlider*>(table_->cellWidget(row, Share))) {
            slider->setEnabled(used_[row]);
            slider->setToolTip(used_[row] && totalShare > 0 ? formatPercent(double(shares_[row]) / totalShare)
                                                            : tr("not used"));
        }
    }
}

QList<app::DeviceCapacity> GpuSelectionTable::selectedGpus() const {
    QList<app::DeviceCapacity> out;
    for (int i = 0; i < gpus_.size(); ++i)
        if (used_[i]) out.append({gpus_[i].name, gpus_[i].index, gpus_[i].totalBytes, gpus_[i].freeBytes});
    return out;
}

QList<double> GpuSelectionTable::selectedShares() const {
    QList<double> out;
    for (int i = 0; i < gpus_.size(); ++i)
        if (used_[i]) out.append(shares_[i]);
    return out;
}

void GpuSelectionTable::setUsed(int gpuIndex, bool used) {
    if (gpuIndex < 0 || gpuIndex >= gpus_.size()) return;
    if (auto* holder = table_->cellWidget(gpuIndex, Use))
        if (auto* check = holder->findChild<QCheckBox*>()) check->setChecked(used);
}

void GpuSelectionTable::setShare(int gpuIndex, int percent) {
    if (auto* slider = qobject_cast<QSlider*>(table_->cellWidget(gpuIndex, Share))) slider->setValue(percent);
}

}  // namespace hearth::ui
