#include "library/ModelTable.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlRecord>
#include <QTimeZone>
#include <QVariant>

#include "core/Database.h"

namespace hearth::app {
namespace {

constexpr const char* kColumns =
    "path, file_size, file_mtime, sha256, architecture, name, file_type, parameter_count, "
    "context_length, origin_repo, added_at, last_used_at, layers, kv_bytes_per_token, supported, "
    "metadata_json, chat_template";

QVariant timeValue(const QDateTime& t) { return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant(); }

void bindRecord(QSqlQuery& q, const ModelRecord& r) {
    q.bindValue(":path", Database::notNull(r.path));
    q.bindValue(":file_size", r.fileSize);
    q.bindValue(":file_mtime", r.fileMtimeMs);
    q.bindValue(":sha256", Database::notNull(r.sha256));
    q.bindValue(":architecture", Database::notNull(r.architecture));
    q.bindValue(":name", Database::notNull(r.name));
    q.bindValue(":file_type", Database::notNull(r.fileType));
    q.bindValue(":parameter_count", qint64(r.parameterCount));
    q.bindValue(":context_length", qint64(r.contextLength));
    q.bindValue(":origin_repo", Database::notNull(r.originRepo));
    q.bindValue(":added_at", timeValue(r.addedAt));
    q.bindValue(":last_used_at", timeValue(r.lastUsedAt));
    q.bindValue(":layers", qint64(r.layers));
    q.bindValue(":kv_bytes_per_token", r.kvBytesPerTokenF16);
    q.bindValue(":supported", r.supported ? 1 : 0);
    q.bindValue(":metadata_json", Database::notNull(r.metadataJson));
    q.bindValue(":chat_template", Database::notNull(r.chatTemplate));
}

QDateTime timeFrom(const QVariant& v) {
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

}  // namespace

Result<QList<ModelRecord>> ModelTable::loadAll() const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    if (!q.exec(QString("SELECT id, %1 FROM models ORDER BY id").arg(kColumns)))
        return Database::errorFrom(q, "read models");
    QList<ModelRecord> out;
    while (q.next()) {
        ModelRecord r;
        r.id = q.value(0).toLongLong();
        r.path = q.value(1).toString();
        r.fileSize = q.value(2).toLongLong();
        r.fileMtimeMs = q.value(3).toLongLong();
        r.sha256 = q.value(4).toString();
        r.architecture = q.value(5).toString();
        r.name = q.value(6).toString();
        r.fileType = q.value(7).toString();
        r.parameterCount = q.value(8).toULongLong();
        r.contextLength = q.value(9).toUInt();
        r.originRepo = q.value(10).toString();
        r.addedAt = timeFrom(q.value(11));
        r.lastUsedAt = timeFrom(q.value(12));
        r.layers = q.value(13).toUInt();
        r.kvBytesPerTokenF16 = q.value(14).toDouble();
        r.supported = q.value(15).toInt() != 0;
        r.metadataJson = q.value(16).toString();
        r.chatTemplate = q.value(17).toString();
        out.append(r);
    }
    if (q.lastError().isValid()) return Database::errorFrom(q, "read models");
    return out;
}

Result<qint64> ModelTable::insert(const ModelRecord& r) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    const QString placeholders = QString(kColumns).replace(QRegularExpression(R"((\w+))"), ":\\1");
    q.prepare(QString("INSERT INTO models (%1) VALUES (%2)").arg(kColumns, placeholders));
    bindRecord(q, r);
    if (!q.exec()) return Database::errorFrom(q, "add model " + r.path);
    return q.lastInsertId().toLongLong();
}

Status ModelTable::update(const ModelRecord& r) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    QStringList sets;
    for (const QString& c : QString(kColumns).split(", ")) sets << c + " = :" + c;
    q.prepare(QString("UPDATE models SET %1 WHERE id = :id").arg(sets.join(", ")));
    bindRecord(q, r);
    q.bindValue(":id", r.id);
    if (!q.exec()) return Database::errorFrom(q, "update model " + r.path);
    return Status::success();
}

Status ModelTable::setSha256(qint64 id, const QString& sha256) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("UPDATE models SET sha256 = ? WHERE id = ?");
    q.addBindValue(sha256);
    q.addBindValue(id);
    if (!q.exec()) return Database::errorFrom(q, "store sha256");
    return Status::success();
}

Status ModelTable::setLastUsed(qint64 id, const QDateTime& when) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("UPDATE models SET last_used_at = ? WHERE id = ?");
    q.addBindValue(timeValue(when));
    q.addBindValue(id);
    if (!q.exec()) return Database::errorFrom(q, "store last use");
    return Status::success();
}

Status ModelTable::remove(qint64 id) const {
    QSqlQuery q(QSqlDatabase::database(connection_));
    q.prepare("DELETE FROM models WHERE id = ?");
    q.addBindValue(id);
    if (!q.exec()) return Database::errorFrom(q, "remove model");
    return Status::success();
}

}  // namespace hearth::app
