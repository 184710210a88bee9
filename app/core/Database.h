#pragma once
// Opens a SQLite file through Qt SQL the same way for every service (model library, chat store,
// download queue): WAL journal, foreign keys on, a quick integrity check, then the schema
// migrations. A damaged file, a file that is not a database, or one written by a newer Hearth comes
// back as an Error value; nothing here crashes or silently recreates the file.
//
// Qt SQL connections belong to the thread that opened them: open, use and close a connection on one
// thread. Connection names must be unique per process (uniqueConnectionName()).

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include "core/SchemaMigration.h"
#include "hearth/result.h"

class QSqlError;
class QSqlQuery;

namespace hearth::app {

class Database {
public:
    // Opens or creates `path` (parent folders are created) as connection `connectionName` and
    // brings its schema to the last step in `migrations`. On error the connection is removed again.
    static Result<QSqlDatabase> open(const QString& path, const QString& connectionName,
                                     const QList<SchemaMigration>& migrations);
    // Closes and removes the connection (call once no QSqlQuery on it is alive).
    static void close(const QString& connectionName);
    // "prefix-N" with N unique in this process.
    static QString uniqueConnectionName(const QString& prefix);

    // The schema version stored in the file (PRAGMA user_version), or an error.
    static Result<int> schemaVersion(QSqlDatabase& db);
    // Runs one statement without results.
    static Status exec(QSqlDatabase& db, const QString& sql);
    // A null QString binds as SQL NULL; NOT NULL text columns get "" instead.
    static QString notNull(const QString& s) { return s.isNull() ? QStringLiteral("") : s; }
    // An Error naming `what` with the driver's message; "file is not a database" becomes Corrupt.
    static Error errorFrom(const QSqlError& error, const QString& what);
    static Error errorFrom(const QSqlQuery& query, const QString& what);
};

}  // namespace hearth::app
