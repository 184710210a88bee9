#pragma once
// The model library as a table for the Library page: one row per ModelRecord, kept in step with
// ModelLibrary's added/changed/removed signals and its hash progress.
//
// Invariants: rows_ holds the library's records in id order; hashProgress_ only has ids of rows
// being hashed; GUI thread only.

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include "library/ModelRecord.h"

namespace hearth::app {
class ModelLibrary;
}

namespace hearth::ui {

class LibraryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Architecture, Quantization, Parameters, Context, Size, Origin, LastUsed, Status, ColumnCount };
    static constexpr int IdRole = Qt::UserRole + 1;

    explicit LibraryModel(app::ModelLibrary& library, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    const app::ModelRecord* record(int row) const;
    int rowOf(qint64 id) const;
    void reload();
    // Headers and cells again, in the current language.
    void retranslate();

private:
    void onAdded(qint64 id);
    void onChanged(qint64 id);
    void onRemoved(qint64 id);
    void onHashProgress(qint64 id, qint64 done, qint64 total);
    QString statusText(const app::ModelRecord& r) const;

    app::ModelLibrary& library_;
    QList<app::ModelRecord> rows_;
    QHash<qint64, double> hashProgress_;
};

}  // namespace hearth::ui
