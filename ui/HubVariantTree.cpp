#include "HubVariantTree.h"

#include <QHeaderView>
#include <QLocale>

#include "Formatting.h"

namespace hearth::ui {

HubVariantTree::HubVariantTree(QWidget* parent) : QTreeWidget(parent) {
    setObjectName("variantTree");
    setColumnCount(ColumnCount);
    setRootIsDecorated(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(Variant, QHeaderView::Stretch);
    retranslate();
}

void HubVariantTree::retranslate() {
    setHeaderLabels({tr("Quantization"), tr("Size"), tr("Bits/weight"), tr("Fits")});
    refreshTexts();
}

void HubVariantTree::setGroups(const QList<app::QuantGroup>& groups) {
    clear();
    groups_ = groups;
    estimates_.clear();
    for (const app::QuantGroup& g : groups_) {
        auto* item = new QTreeWidgetItem(this);
        item->setToolTip(Variant, g.baseName);
        if (g.split)
            for (const app::HubFile& f : g.files) {
                auto* part = new QTreeWidgetItem(item);
                part->setText(Variant, f.path);
                part->setText(Size, formatBytes(quint64(f.size)));
                part->setFlags(part->flags() & ~Qt::ItemIsSelectable);
            }
    }
    refreshTexts();
}

void HubVariantTree::setEstimates(const QList<app::FitEstimate>& estimates) {
    estimates_ = estimates.size() == groups_.size() ? estimates : QList<app::FitEstimate>{};
    refreshTexts();
}

void HubVariantTree::refreshTexts() {
    for (int i = 0; i < groups_.size() && i < topLevelItemCount(); ++i) {
        const app::QuantGroup& g = groups_[i];
        QTreeWidgetItem* item = topLevelItem(i);
        QString name = g.quant.isEmpty() ? g.baseName : g.quant;
        if (g.projector) name += tr(" (vision projector)");
        if (g.split) name += tr(" (%n part(s))", nullptr, int(g.files.size()));
        if (!g.complete) name += tr(" — incomplete");
        item->setText(Variant, name);
        item->setText(Size, formatBytes(quint64(g.totalBytes)));
        item->setText(Bits, g.bitsPerWeight > 0 ? QLocale().toString(g.bitsPerWeight, 'f', 1) : QString());
        if (i < estimates_.size() && !g.projector) {
            const app::FitEstimate& e = estimates_[i];
            const QString need = formatBytes(quint64(e.requiredBytes));
            const QString have = formatBytes(quint64(e.availableBytes));
            item->setText(Fits, e.fits ? (e.approximate ? tr("yes (about %1 of %2)") : tr("yes (%1 of %2)")).arg(need, have)
                                       : (e.approximate ? tr("no (about %1, %2 free)") : tr("no (%1, %2 free)")).arg(need, have));
            item->setForeground(Fits, e.fits ? QColor(0x2e, 0x7d, 0x32) : QColor(0xb3, 0x26, 0x1e));
            item->setData(Fits, Qt::UserRole, e.fits);
        } else {
            item->setText(Fits, QString());
        }
    }
}

int HubVariantTree::selectedGroup() const {
    const auto items = selectedItems();
    if (items.isEmpty()) return -1;
    return indexOfTopLevelItem(items.first());
}

void HubVariantTree::selectGroup(int index) {
    if (QTreeWidgetItem* item = topLevelItem(index)) setCurrentItem(item);
}

}  // namespace hearth::ui
