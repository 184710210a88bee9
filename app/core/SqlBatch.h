#pragma once
// Statements a service wants written together, handed to a SqlWriter on its worker thread.
// Invariant: a batch is applied in one transaction — all of its statements or none.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QVariantList>

namespace hearth::app {

struct SqlStatement {
    QString sql;
    QVariantList values;  // bound to the '?' placeholders in order
};

struct SqlBatch {
    QList<SqlStatement> statements;
    SqlBatch& add(QString sql, QVariantList values = {}) {
        statements.append({std::move(sql), std::move(values)});
        return *this;
    }
};

}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::app::SqlBatch)
