#include "server/ApiKeyStore.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include "core/Database.h"

namespace hearth::app::server {
namespace {

std::string randomHex(int bytes) {
    QByteArray b(bytes, '\0');
    QRandomGenerator::system()->generate(reinterpret_cast<quint32*>(b.data()),
                                         reinterpret_cast<quint32*>(b.data()) + bytes / 4);
    return b.toHex().toStdString();
}

bool isHex(const std::string& s) {
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

ApiKeyRecord recordFrom(const QSqlQuery& q) {
    ApiKeyRecord r;
    r.keyId = q.value(0).toString().toStdString();
    r.name = q.value(1).toString().toStdString();
    r.salt = q.value(2).toByteArray();
    r.hash = q.value(3).toByteArray();
    r.createdAtMs = q.value(4).toLongLong();
    if (!q.value(5).isNull()) r.revokedAtMs = q.value(5).toLongLong();
    r.limits.maxConcurrent = q.value(6).toInt();
    r.limits.tokensPerMinute = q.value(7).toLongLong();
    return r;
}

}  // namespace

QByteArray ApiKeyStore::hashKey(const QByteArray& salt, const std::string& key) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(salt);
    h.addData(QByteArrayView(key.data(), static_cast<qsizetype>(key.size())));
    return h.result();
}

std::string ApiKeyStore::keyIdOf(const std::string& key) {
    // hk_ + 8 + _ + 48
    if (key.size() != 3 + 8 + 1 + 48 || key.compare(0, 3, "hk_") != 0 || key[11] != '_') return {};
    const std::string id = key.substr(3, 8);
    if (!isHex(id) || !isHex(key.substr(12))) return {};
    return id;
}

Result<ApiKeyStore::Created> ApiKeyStore::create(const std::string& name, ApiKeyLimits limits) {
    if (name.empty() || name.size() > 64)
        return makeError(ErrorCode::InvalidArgument, "a key name must be 1 to 64 characters");
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7F) return makeError(ErrorCode::InvalidArgument, "a key name must not contain control characters");
    if (limits.maxConcurrent < 0 || limits.tokensPerMinute < 0)
        return makeError(ErrorCode::InvalidArgument, "key limits must not be negative");
    QSqlQuery exists(db_);
    exists.prepare("SELECT 1 FROM api_keys WHERE name = ? AND revoked_at IS NULL");
    exists.addBindValue(QString::fromStdString(name));
    if (!exists.exec()) return Database::errorFrom(exists, "look up key name");
    if (exists.next()) return makeError(ErrorCode::InvalidArgument, "an active key named '" + name + "' already exists");

    for (int attempt = 0; attempt < 8; ++attempt) {  // key ids are random: retry the rare collision
        Created c;
        c.record.keyId = randomHex(4);
        c.key = "hk_" + c.record.keyId + "_" + randomHex(24);
        c.record.name = name;
        c.record.salt = QByteArray::fromHex(QByteArray::fromStdString(randomHex(16)));
        c.record.hash = hashKey(c.record.salt, c.key);
        c.record.createdAtMs = QDateTime::currentMSecsSinceEpoch();
        c.record.limits = limits;
        QSqlQuery q(db_);
        q.prepare("INSERT INTO api_keys (key_id, name, salt, hash, created_at, max_concurrent, tokens_per_minute) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)");
        q.addBindValue(QString::fromStdString(c.record.keyId));
        q.addBindValue(QString::fromStdString(name));
        q.addBindValue(c.record.salt);
        q.addBindValue(c.record.hash);
        q.addBindValue(static_cast<qint64>(c.record.createdAtMs));
        q.addBindValue(limits.maxConcurrent);
        q.addBindValue(static_cast<qint64>(limits.tokensPerMinute));
        if (q.exec()) return c;
        if (!q.lastError().text().contains("key_id", Qt::CaseInsensitive)) return Database::errorFrom(q, "store the key");
    }
    return makeError(ErrorCode::Internal, "could not pick a unique key id");
}

Result<std::vector<ApiKeyRecord>> ApiKeyStore::list(bool includeRevoked) {
    QSqlQuery q(db_);
    const QString sql = "SELECT key_id, name, salt, hash, created_at, revoked_at, max_concurrent, tokens_per_minute "
                        "FROM api_keys" +
                        QString(includeRevoked ? "" : " WHERE revoked_at IS NULL") + " ORDER BY created_at, id";
    if (!q.exec(sql)) return Database::errorFrom(q, "list keys");
    std::vector<ApiKeyRecord> out;
    while (q.next()) out.push_back(recordFrom(q));
    return out;
}

Status ApiKeyStore::revoke(const std::string& nameOrKeyId) {
    QSqlQuery q(db_);
    q.prepare("UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND (name = ? OR key_id = ?)");
    q.addBindValue(static_cast<qint64>(QDateTime::currentMSecsSinceEpoch()));
    q.addBindValue(QString::fromStdString(nameOrKeyId));
    q.addBindValue(QString::fromStdString(nameOrKeyId));
    if (!q.exec()) return Database::errorFrom(q, "revoke key");
    if (q.numRowsAffected() < 1) return makeError(ErrorCode::InvalidArgument, "no active key named '" + nameOrKeyId + "'");
    return Status::success();
}

Result<int> ApiKeyStore::activeCount() {
    QSqlQuery q(db_);
    if (!q.exec("SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL") || !q.next())
        return Database::errorFrom(q, "count keys");
    return q.value(0).toInt();
}

}  // namespace hearth::app::server
