#include "downloads/DownloadQueueStore.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include "core/Database.h"

namespace hearth::app {
namespace {

QList<SchemaMigration> queueSchema() {
    return {{1,
             {R"(CREATE TABLE downloads (
                   id INTEGER PRIMARY KEY AUTOINCREMENT,
                   url TEXT NOT NULL,
                   destination TEXT NOT NULL,
                   expected_size INTEGER NOT NULL DEFAULT -1,
                   expected_sha256 TEXT NOT NULL DEFAULT '',
                   repo TEXT NOT NULL DEFAULT '',
                   repo_path TEXT NOT NULL DEFAULT '',
                   state TEXT NOT NULL,
                   bytes_done INTEGER NOT NULL DEFAULT 0,
                   total_bytes INTEGER NOT NULL DEFAULT -1,
                   error TEXT NOT NULL DEFAULT '',
                   sha256 TEXT NOT NULL DEFAULT '',
                   added_at INTEGER NOT NULL,
                   finished_at INTEGER))"}}};
}

QVariant timeValue(const QDateTime& t) { return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant(); }

}  // namespace

DownloadQueueStore::~DownloadQueueStore() { close(); }

Status DownloadQueueStore::open(const QString& path) {
    close();
    const QString name = Database::uniqueConnectionName("downloads");
    if (auto db = Database::open(path, name, queueSchema()); !db) return db.error();
    connection_ = name;
    return Status::success();
}

void DownloadQueueStore::close() {
    if (!connection_.isEmpty()) Database::close(connection_);
    connection_.clear();
}

Result<QList<DownloadTask>> DownloadQueueStore::load() const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    if (!q.exec("SELECT id, url, destination, expected_size, expected_sha256, repo, repo_path, state, bytes_done, "
                "total_bytes, error, sha256, added_at, finished_at FROM downloads ORDER BY id"))
        return Database::errorFrom(q, "read the download queue");
    QList<DownloadTask> out;
    while (q.next()) {
        DownloadTask t;
        t.id = q.value(0).toLongLong();
        t.request.url = QUrl(q.value(1).toString());
        t.request.destination = q.value(2).toString();
        t.request.expectedSize = q.value(3).toLongLong();
        t.request.expectedSha256 = q.value(4).toString();
        t.request.repo = q.value(5).toString();
        t.request.repoPath = q.value(6).toString();
        t.state = downloadStateFromName(q.value(7).toString());
        t.bytesDone = q.value(8).toLongLong();
        t.totalBytes = q.value(9).toLongLong();
        t.error = q.value(10).toString();
        t.sha256 = q.value(11).toString();
        t.addedAt = QDateTime::fromMSecsSinceEpoch(q.value(12).toLongLong(), Qt::UTC);
        if (!q.value(13).isNull()) t.finishedAt = QDateTime::fromMSecsSinceEpoch(q.value(13).toLongLong(), Qt::UTC);
        out.append(t);
    }
    return out;
}

Result<qint64> DownloadQueueStore::insert(const DownloadTask& t) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("INSERT INTO downloads (url, destination, expected_size, expected_sha256, repo, repo_path, state, "
              "added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    q.addBindValue(t.request.url.toString(QUrl::FullyEncoded));
    q.addBindValue(t.request.destination);
    q.addBindValue(t.request.expectedSize);
    q.addBindValue(Database::notNull(t.request.expectedSha256));
    q.addBindValue(Database::notNull(t.request.repo));
    q.addBindValue(Database::notNull(t.request.repoPath));
    q.addBindValue(downloadStateName(t.state));
    q.addBindValue(t.addedAt.toMSecsSinceEpoch());
    if (!q.exec()) return Database::errorFrom(q, "add a download");
    return q.lastInsertId().toLongLong();
}

Status DownloadQueueStore::save(const DownloadTask& t) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("UPDATE downloads SET state = ?, bytes_done = ?, total_bytes = ?, error = ?, sha256 = ?, "
              "finished_at = ? WHERE id = ?");
    q.addBindValue(downloadStateName(t.state));
    q.addBindValue(t.bytesDone);
    q.addBindValue(t.totalBytes);
    q.addBindValue(Database::notNull(t.error));
    q.addBindValue(Database::notNull(t.sha256));
    q.addBindValue(timeValue(t.finishedAt));
    q.addBindValue(t.id);
    if (!q.exec()) return Database::errorFrom(q, "save a download");
    return Status::success();
}

Status DownloadQueueStore::remove(qint64 id) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("DELETE FROM downloads WHERE id = ?");
    q.addBindValue(id);
    if (!q.exec()) return Database::errorFrom(q, "remove a download");
    return Status::success();
}

}  // namespace hearth::app
