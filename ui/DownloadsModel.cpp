#include "DownloadsModel.h"

#include <QFileInfo>
#include <algorithm>

#include "Formatting.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"

namespace hearth::ui {

DownloadsModel::DownloadsModel(app::DownloadManager& manager, QObject* parent)
    : QAbstractTableModel(parent), manager_(manager) {
    connect(&manager_, &app::DownloadManager::taskAdded, this, &DownloadsModel::reload);
    connect(&manager_, &app::DownloadManager::taskRemoved, this, &DownloadsModel::reload);
    connect(&manager_, &app::DownloadManager::taskChanged, this, &DownloadsModel::onChanged);
    reload();
}

void DownloadsModel::reload() {
    beginResetModel();
    rows_ = manager_.tasks();
    std::sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    endResetModel();
}

void DownloadsModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.isEmpty()) emit dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
}

void DownloadsModel::onChanged(qint64 id) {
    const int row = rowOf(id);
    auto t = manager_.task(id);
    if (row < 0 || !t) return reload();
    rows_[row] = *t;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int DownloadsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int DownloadsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

std::optional<app::DownloadTask> DownloadsModel::task(int row) const {
    if (row < 0 || row >= rows_.size()) return std::nullopt;
    return rows_[row];
}

int DownloadsModel::rowOf(qint64 id) const {
    for (int i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == id) return i;
    return -1;
}

QString DownloadsModel::stateText(app::DownloadState state) {
    switch (state) {
        case app::DownloadState::Queued: return tr("Queued");
        case app::DownloadState::Running: return tr("Downloading");
        case app::DownloadState::Paused: return tr("Paused");
        case app::DownloadState::Completed: return tr("Done");
        case app::DownloadState::Failed: return tr("Failed");
        case app::DownloadState::Cancelled: return tr("Cancelled");
    }
    return {};
}

QVariant DownloadsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    const app::DownloadTask& t = rows_[index.row()];
    const qint64 total = t.totalBytes >= 0 ? t.totalBytes : t.request.expectedSize;
    if (role == IdRole) return t.id;
    if (role == ProgressRole) return total > 0 ? std::clamp(double(t.bytesDone) / double(total), 0.0, 1.0) : -1.0;
    if (role == Qt::ToolTipRole) return t.state == app::DownloadState::Failed ? t.error : t.request.destination;
    if (role != Qt::DisplayRole) return {};
    const bool running = t.state == app::DownloadState::Running;
    switch (index.column()) {
        case File: return QFileInfo(t.request.destination).fileName();
        case Repository: return t.request.repo;
        case State:
            if (t.state == app::DownloadState::Failed) return tr("Failed: %1").arg(t.error);
            if (running && t.attempts > 1) return tr("Retrying (attempt %1)").arg(t.attempts);
            return stateText(t.state);
        case Progress: return total > 0 ? formatPercent(double(t.bytesDone) / double(total)) : formatBytes(quint64(t.bytesDone));
        case Size: return total >= 0 ? formatBytes(quint64(total)) : tr("unknown");
        case Speed: return running ? formatRate(t.bytesPerSecond) : QString();
        case Eta: return running ? formatDuration(t.etaSeconds) : QString();
    }
    return {};
}

QVariant DownloadsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case File: return tr("File");
        case Repository: return tr("Repository");
        case State: return tr("State");
        case Progress: return tr("Progress");
        case Size: return tr("Size");
        case Speed: return tr("Speed");
        case Eta: return tr("Time left");
    }
    return {};
}

}  // namespace hearth::ui
