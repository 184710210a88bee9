#include "HubSearchModel.h"

#include <QLocale>

#include "Formatting.h"

namespace hearth::ui {

void HubSearchModel::setResults(const QList<app::HubModelSummary>& results) {
    beginResetModel();
    rows_ = results;
    endResetModel();
}

const app::HubModelSummary* HubSearchModel::summary(int row) const {
    return row >= 0 && row < rows_.size() ? &rows_[row] : nullptr;
}

void HubSearchModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.isEmpty()) emit dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
}

int HubSearchModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int HubSearchModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant HubSearchModel::data(const QModelIndex& index, int role) const {
    const app::HubModelSummary* m = summary(index.row());
    if (!m) return {};
    if (role == Qt::ToolTipRole) return m->tags.join(QStringLiteral(", "));
    if (role == Qt::TextAlignmentRole && (index.column() == Downloads || index.column() == Likes))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Model: return m->id;
        case Downloads: return formatCount(quint64(std::max<qint64>(0, m->downloads)));
        case Likes: return formatCount(quint64(std::max<qint64>(0, m->likes)));
        case Updated:
            return m->lastModified.isValid() ? QLocale().toString(m->lastModified.toLocalTime().date(), QLocale::ShortFormat)
                                             : QString();
        case Access:
            if (m->isPrivate) return tr("Private");
            return m->gated.isEmpty() ? tr("Open") : tr("Needs a token");
    }
    return {};
}

QVariant HubSearchModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Model: return tr("Model");
        case Downloads: return tr("Downloads");
        case Likes: return tr("Likes");
        case Updated: return tr("Updated");
        case Access: return tr("Access");
    }
    return {};
}

}  // namespace hearth::ui
