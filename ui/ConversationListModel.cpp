#include "ConversationListModel.h"

#include <QLocale>

#include "chat/ChatStore.h"
#include "host/ChatRunner.h"

namespace hearth::ui {

ConversationListModel::ConversationListModel(app::ChatStore& store, app::ChatRunner& runner, QObject* parent)
    : QAbstractListModel(parent), store_(store), runner_(runner) {
    connect(&store_, &app::ChatStore::conversationAdded, this, &ConversationListModel::reload);
    connect(&store_, &app::ChatStore::conversationChanged, this, &ConversationListModel::reload);
    connect(&store_, &app::ChatStore::conversationRemoved, this, &ConversationListModel::reload);
    auto refreshRow = [this](const QString& id) {
        const int row = rowOf(id);
        if (row >= 0) emit dataChanged(index(row), index(row));
    };
    connect(&runner_, &app::ChatRunner::replyStarted, this, refreshRow);
    connect(&runner_, &app::ChatRunner::replyFinished, this, refreshRow);
    reload();
}

void ConversationListModel::reload() {
    QList<app::ChatConversation> all = store_.isOpen() ? store_.conversations() : QList<app::ChatConversation>{};
    QList<app::ChatConversation> rows;
    for (const auto& c : all)
        if (!filter_ || filter_->contains(c.id)) rows.append(c);
    // Same ids in the same order: only the texts changed.
    bool sameIds = rows.size() == rows_.size();
    for (int i = 0; sameIds && i < rows.size(); ++i) sameIds = rows[i].id == rows_[i].id;
    if (sameIds) {
        rows_ = rows;
        if (!rows_.isEmpty()) emit dataChanged(index(0), index(int(rows_.size()) - 1));
        return;
    }
    beginResetModel();
    rows_ = rows;
    endResetModel();
}

void ConversationListModel::setFilter(std::optional<QSet<QString>> ids) {
    filter_ = std::move(ids);
    reload();
}

int ConversationListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

int ConversationListModel::rowOf(const QString& id) const {
    for (int i = 0; i < rows_.size(); ++i)
        if (rows_[i].id == id) return i;
    return -1;
}

QString ConversationListModel::idAt(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].id : QString(); }

QVariant ConversationListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    const app::ChatConversation& c = rows_[index.row()];
    switch (role) {
        case Qt::DisplayRole: {
            const QString title = c.title.isEmpty() ? tr("Untitled chat") : c.title;
            return runner_.isGenerating(c.id) ? QStringLiteral("● ") + title : title;
        }
        case Qt::ToolTipRole:
            return tr("%n message(s), updated %1", nullptr, c.messageCount)
                .arg(QLocale().toString(c.updatedAt.toLocalTime(), QLocale::ShortFormat));
        case IdRole: return c.id;
    }
    return {};
}

}  // namespace hearth::ui
