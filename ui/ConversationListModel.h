#pragma once
// The chat store's conversations as a list (newest update first), optionally narrowed to the
// ones a search matched; a conversation that is generating shows a marker.
//
// Invariants: rows_ is the store's conversations() order, filtered by filter_ when one is set;
// GUI thread only.

#include <QAbstractListModel>
#include <QList>
#include <QSet>
#include <optional>

#include "chat/ChatConversation.h"

namespace hearth::app {
class ChatRunner;
class ChatStore;
}  // namespace hearth::app

namespace hearth::ui {

class ConversationListModel : public QAbstractListModel {
    Q_OBJECT
public:
    static constexpr int IdRole = Qt::UserRole + 1;

    ConversationListModel(app::ChatStore& store, app::ChatRunner& runner, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    // Only these conversations (search results); nullopt shows all.
    void setFilter(std::optional<QSet<QString>> ids);
    int rowOf(const QString& id) const;
    QString idAt(int row) const;
    void reload();

private:
    app::ChatStore& store_;
    app::ChatRunner& runner_;
    QList<app::ChatConversation> rows_;
    std::optional<QSet<QString>> filter_;
};

}  // namespace hearth::ui
