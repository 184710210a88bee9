#include "core/SqlWriter.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include "core/Database.h"

namespace hearth::app {

SqlWriter::SqlWriter(std::shared_ptr<std::atomic<int>> pending) : pending_(std::move(pending)) {}

SqlWriter::~SqlWriter() {
    if (!connection_.isEmpty()) Database::close(connection_);
}

Status SqlWriter::openHere(const QString& path, const QList<SchemaMigration>& schema) {
    const QString name = Database::uniqueConnectionName("writer");
    auto db = Database::open(path, name, schema);
    if (!db) return db.error();
    connection_ = name;
    return Status::success();
}

void SqlWriter::write(const SqlBatch& batch) {
    QString error;
    if (connection_.isEmpty()) {
        error = "the database is not open";
    } else {
        QSqlDatabase db = QSqlDatabase::database(connection_);
        if (!db.transaction()) {
            error = db.lastError().text();
        } else {
            for (const SqlStatement& s : batch.statements) {
                QSqlQuery q(db);
                q.prepare(s.sql);
                for (const QVariant& v : s.values) q.addBindValue(v);
                if (!q.exec()) {
                    error = QString("%1 (%2)").arg(q.lastError().text(), s.sql.left(50));
                    break;
                }
            }
            if (error.isEmpty() && !db.commit()) error = db.lastError().text();
            if (!error.isEmpty()) db.rollback();
        }
    }
    pending_->fetch_sub(1);
    if (!error.isEmpty()) emit failed(error);
}

}  // namespace hearth::app
