#pragma once
// The `models` table of the library database: row <-> ModelRecord, nothing else. Used on the
// thread that opened the connection.
#include <QDateTime>
#include <QList>
#include <QString>

#include "hearth/result.h"
#include "library/ModelRecord.h"

namespace hearth::app {

class ModelTable {
public:
    explicit ModelTable(QString connectionName) : connection_(std::move(connectionName)) {}

    Result<QList<ModelRecord>> loadAll() const;
    Result<qint64> insert(const ModelRecord& record) const;  // returns the new id
    Status update(const ModelRecord& record) const;          // every stored column, by id
    Status setSha256(qint64 id, const QString& sha256) const;
    Status setLastUsed(qint64 id, const QDateTime& when) const;
    Status remove(qint64 id) const;

private:
    QString connection_;
};

}  // namespace hearth::app
