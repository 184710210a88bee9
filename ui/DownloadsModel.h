#pragma once
// The download queue as a table: file, repository, state, progress (0..1 in ProgressRole, drawn as
// a bar), size, speed and time left, kept in step with the DownloadManager's signals.
// Invariants: rows_ holds the manager's task ids in queue (id) order; GUI thread only.

#include <QAbstractTableModel>
#include <QList>
#include <optional>

#include "downloads/DownloadTask.h"

namespace hearth::app {
class DownloadManager;
}

namespace hearth::ui {

class DownloadsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { File, Repository, State, Progress, Size, Speed, Eta, ColumnCount };
    static constexpr int IdRole = Qt::UserRole + 1;
    static constexpr int ProgressRole = Qt::UserRole + 2;  // double in [0,1], or -1 when unknown

    explicit DownloadsModel(app::DownloadManager& manager, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    std::optional<app::DownloadTask> task(int row) const;
    int rowOf(qint64 id) const;
    void reload();
    void retranslate();
    static QString stateText(app::DownloadState state);

private:
    void onChanged(qint64 id);
    app::DownloadManager& manager_;
    QList<app::DownloadTask> rows_;
};

}  // namespace hearth::ui
