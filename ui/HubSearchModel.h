#pragma once
// Hub search results for the Discover page: one row per model repository, in the order the hub
// returned them (its sort). Invariant: rows_ is the last result set; GUI thread only.

#include <QAbstractTableModel>
#include <QList>

#include "hub/HubModelSummary.h"

namespace hearth::ui {

class HubSearchModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Model, Downloads, Likes, Updated, Access, ColumnCount };

    explicit HubSearchModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}

    void setResults(const QList<app::HubModelSummary>& results);
    const app::HubModelSummary* summary(int row) const;
    void retranslate();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<app::HubModelSummary> rows_;
};

}  // namespace hearth::ui
