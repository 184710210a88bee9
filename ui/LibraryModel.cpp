#include "LibraryModel.h"

#include <QLocale>
#include <algorithm>

#include "Formatting.h"
#include "library/ModelLibrary.h"

namespace hearth::ui {

LibraryModel::LibraryModel(app::ModelLibrary& library, QObject* parent) : QAbstractTableModel(parent), library_(library) {
    connect(&library_, &app::ModelLibrary::modelAdded, this, &LibraryModel::onAdded);
    connect(&library_, &app::ModelLibrary::modelChanged, this, &LibraryModel::onChanged);
    connect(&library_, &app::ModelLibrary::modelRemoved, this, &LibraryModel::onRemoved);
    connect(&library_, &app::ModelLibrary::hashProgress, this, &LibraryModel::onHashProgress);
    connect(&library_, &app::ModelLibrary::hashFinished, this, [this](qint64 id) {
        hashProgress_.remove(id);
        onChanged(id);
    });
    connect(&library_, &app::ModelLibrary::hashFailed, this, [this](qint64 id) {
        hashProgress_.remove(id);
        onChanged(id);
    });
    reload();
}

void LibraryModel::reload() {
    beginResetModel();
    rows_ = library_.isOpen() ? library_.models() : QList<app::ModelRecord>{};
    hashProgress_.clear();
    endResetModel();
}

void LibraryModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.isEmpty()) emit dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
}

int LibraryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int LibraryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const app::ModelRecord* LibraryModel::record(int row) const {
    return row >= 0 && row < rows_.size() ? &rows_[row] : nullptr;
}

int LibraryModel::rowOf(qint64 id) const {
    for (int i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == id) return i;
    return -1;
}

QString LibraryModel::statusText(const app::ModelRecord& r) const {
    if (r.fileMissing) return tr("File missing");
    if (hashProgress_.contains(r.id)) return tr("Hashing %1").arg(formatPercent(hashProgress_.value(r.id)));
    if (r.hashing) return tr("Hashing");
    if (!r.supported) return tr("Unsupported architecture");
    if (r.sha256.isEmpty()) return tr("Not hashed");
    return tr("Ready");
}

QVariant LibraryModel::data(const QModelIndex& index, int role) const {
    const app::ModelRecord* r = record(index.row());
    if (!r) return {};
    if (role == IdRole) return r->id;
    if (role == Qt::ToolTipRole) return r->path;
    if (role == Qt::TextAlignmentRole && (index.column() == Parameters || index.column() == Context || index.column() == Size))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Name: return r->name;
        case Architecture: return r->architecture;
        case Quantization: return r->fileType;
        case Parameters: return r->parameterCount ? formatParameters(r->parameterCount) : QString();
        case Context: return r->contextLength ? QLocale().toString(r->contextLength) : QString();
        case Size: return formatBytes(quint64(r->fileSize));
        case Origin: return r->originRepo.isEmpty() ? tr("Added by hand") : r->originRepo;
        case LastUsed:
            return r->lastUsedAt.isValid() ? QLocale().toString(r->lastUsedAt.toLocalTime(), QLocale::ShortFormat)
                                           : tr("Never");
        case Status: return statusText(*r);
    }
    return {};
}

QVariant LibraryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name: return tr("Name");
        case Architecture: return tr("Architecture");
        case Quantization: return tr("Quantization");
        case Parameters: return tr("Parameters");
        case Context: return tr("Context");
        case Size: return tr("Size");
        case Origin: return tr("Origin");
        case LastUsed: return tr("Last used");
        case Status: return tr("Status");
    }
    return {};
}

void LibraryModel::onAdded(qint64 id) {
    auto r = library_.model(id);
    if (!r || rowOf(id) >= 0) return onChanged(id);
    // Rows stay in id order, like the library.
    const auto pos = std::lower_bound(rows_.begin(), rows_.end(), id,
                                      [](const app::ModelRecord& a, qint64 b) { return a.id < b; });
    const int row = int(pos - rows_.begin());
    beginInsertRows({}, row, row);
    rows_.insert(row, *r);
    endInsertRows();
}

void LibraryModel::onChanged(qint64 id) {
    const int row = rowOf(id);
    auto r = library_.model(id);
    if (row < 0 || !r) return;
    rows_[row] = *r;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void LibraryModel::onRemoved(qint64 id) {
    const int row = rowOf(id);
    if (row < 0) return;
    beginRemoveRows({}, row, row);
    rows_.removeAt(row);
    hashProgress_.remove(id);
    endRemoveRows();
}

void LibraryModel::onHashProgress(qint64 id, qint64 done, qint64 total) {
    if (total <= 0) return;
    hashProgress_[id] = double(done) / double(total);
    const int row = rowOf(id);
    if (row >= 0) emit dataChanged(index(row, Status), index(row, Status));
}

}  // namespace hearth::ui
