#include "server/AccessLog.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include "core/Database.h"

namespace hearth::app::server {

Status AccessLog::append(const std::vector<AccessLogEntry>& entries) {
    if (entries.empty()) return Status::success();
    if (!db_.transaction()) return Database::errorFrom(db_.lastError(), "begin access log write");
    QSqlQuery q(db_);
    q.prepare("INSERT INTO access_log (at, key_name, client, method, path, model, prompt_tokens, completion_tokens, "
              "status, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& e : entries) {
        q.addBindValue(static_cast<qint64>(e.atMs));
        q.addBindValue(QString::fromStdString(e.keyName));
        q.addBindValue(QString::fromStdString(e.client));
        q.addBindValue(QString::fromStdString(e.method));
        q.addBindValue(QString::fromStdString(e.path));
        q.addBindValue(QString::fromStdString(e.model));
        q.addBindValue(e.promptTokens);
        q.addBindValue(e.completionTokens);
        q.addBindValue(e.status);
        q.addBindValue(e.durationMs);
        if (!q.exec()) {
            Error err = Database::errorFrom(q, "write access log");
            db_.rollback();
            return err;
        }
    }
    if (!db_.commit()) {
        Error err = Database::errorFrom(db_.lastError(), "commit access log");
        db_.rollback();
        return err;
    }
    return Status::success();
}

Result<std::vector<AccessLogEntry>> AccessLog::recent(int limit) {
    QSqlQuery q(db_);
    q.prepare("SELECT at, key_name, client, method, path, model, prompt_tokens, completion_tokens, status, duration_ms "
              "FROM access_log ORDER BY at DESC, id DESC LIMIT ?");
    q.addBindValue(limit);
    if (!q.exec()) return Database::errorFrom(q, "read access log");
    std::vector<AccessLogEntry> out;
    while (q.next()) {
        AccessLogEntry e;
        e.atMs = q.value(0).toLongLong();
        e.keyName = q.value(1).toString().toStdString();
        e.client = q.value(2).toString().toStdString();
        e.method = q.value(3).toString().toStdString();
        e.path = q.value(4).toString().toStdString();
        e.model = q.value(5).toString().toStdString();
        e.promptTokens = q.value(6).toInt();
        e.completionTokens = q.value(7).toInt();
        e.status = q.value(8).toInt();
        e.durationMs = q.value(9).toDouble();
        out.push_back(std::move(e));
    }
    return out;
}

Status AccessLog::pruneBefore(int64_t atMs) {
    QSqlQuery q(db_);
    q.prepare("DELETE FROM access_log WHERE at < ?");
    q.addBindValue(static_cast<qint64>(atMs));
    if (!q.exec()) return Database::errorFrom(q, "prune access log");
    return Status::success();
}

}  // namespace hearth::app::server
