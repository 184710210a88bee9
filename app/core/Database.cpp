#include "core/Database.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace hearth::app {
namespace {

Status applyMigration(QSqlDatabase& db, const SchemaMigration& step) {
    if (!db.transaction()) return Database::errorFrom(db.lastError(), "begin migration");
    for (const QString& sql : step.statements) {
        QSqlQuery q(db);
        if (!q.exec(sql)) {
            Error e = Database::errorFrom(q, QString("schema step %1").arg(step.version));
            db.rollback();
            return e;
        }
    }
    QSqlQuery q(db);
    // PRAGMA takes no bound parameters; the version is an int we own.
    if (!q.exec(QString("PRAGMA user_version = %1").arg(step.version))) {
        Error e = Database::errorFrom(q, "set schema version");
        db.rollback();
        return e;
    }
    if (!db.commit()) {
        Error e = Database::errorFrom(db.lastError(), "commit migration");
        db.rollback();
        return e;
    }
    return Status::success();
}

Status prepare(QSqlDatabase& db, const QString& path, const QList<SchemaMigration>& migrations) {
    if (!db.open()) return Database::errorFrom(db.lastError(), "open " + path);
    // The first statement that reads the file is where SQLite notices it is not a database.
    auto version = Database::schemaVersion(db);
    if (!version) return version.error();
    {
        QSqlQuery q(db);
        if (!q.exec("PRAGMA quick_check") || !q.next())
            return Database::errorFrom(q, "integrity check of " + path);
        const QString verdict = q.value(0).toString();
        if (verdict != "ok")
            return makeError(ErrorCode::Corrupt,
                             QString("%1 is damaged (%2)").arg(path, verdict).toStdString());
    }
    HEARTH_TRY(Database::exec(db, "PRAGMA journal_mode = WAL"));
    HEARTH_TRY(Database::exec(db, "PRAGMA synchronous = NORMAL"));  // WAL keeps this crash-safe
    HEARTH_TRY(Database::exec(db, "PRAGMA foreign_keys = ON"));
    const int latest = migrations.isEmpty() ? 0 : migrations.back().version;
    if (*version > latest)
        return makeError(ErrorCode::UnsupportedVersion,
                         QString("%1 has schema version %2, newer than this Hearth knows (%3)")
                             .arg(path)
                             .arg(*version)
                             .arg(latest)
                             .toStdString());
    for (const SchemaMigration& step : migrations)
        if (step.version > *version) HEARTH_TRY(applyMigration(db, step));
    return Status::success();
}

}  // namespace

Result<QSqlDatabase> Database::open(const QString& path, const QString& connectionName,
                                    const QList<SchemaMigration>& migrations) {
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return makeError(ErrorCode::IoError,
                         ("cannot create folder " + info.absolutePath()).toStdString());
    if (info.exists() && !info.isFile())
        return makeError(ErrorCode::IoError, (path + " is not a file").toStdString());
    Status status;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", connectionName);
        db.setDatabaseName(path);
        db.setConnectOptions("QSQLITE_BUSY_TIMEOUT=5000");
        status = prepare(db, path, migrations);
        if (status.ok()) return db;
        db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
    return status.error();
}

void Database::close(const QString& connectionName) {
    {
        QSqlDatabase db = QSqlDatabase::database(connectionName, false);
        if (db.isOpen()) db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
}

QString Database::uniqueConnectionName(const QString& prefix) {
    static QAtomicInteger<quint64> counter;
    return QString("%1-%2").arg(prefix).arg(counter.fetchAndAddRelaxed(1));
}

Result<int> Database::schemaVersion(QSqlDatabase& db) {
    QSqlQuery q(db);
    if (!q.exec("PRAGMA user_version") || !q.next()) return errorFrom(q, "read schema version");
    return q.value(0).toInt();
}

Status Database::exec(QSqlDatabase& db, const QString& sql) {
    QSqlQuery q(db);
    if (!q.exec(sql)) return errorFrom(q, sql.left(60));
    return Status::success();
}

Error Database::errorFrom(const QSqlError& error, const QString& what) {
    const QString text = error.text();
    const bool damaged = text.contains("not a database", Qt::CaseInsensitive) ||
                         text.contains("malformed", Qt::CaseInsensitive) ||
                         error.nativeErrorCode() == "26" || error.nativeErrorCode() == "11";
    const QString message = damaged ? QString("%1: the database file is damaged or not a database (%2)")
                                          .arg(what, text)
                                    : QString("%1: %2").arg(what, text);
    return makeError(damaged ? ErrorCode::Corrupt : ErrorCode::IoError, message.toStdString());
}

Error Database::errorFrom(const QSqlQuery& query, const QString& what) {
    return errorFrom(query.lastError(), what);
}

}  // namespace hearth::app
