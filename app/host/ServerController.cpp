#include "host/ServerController.h"

#include <QHostAddress>
#include <QMap>
#include <QNetworkInterface>
#include <QSqlDatabase>
#include <algorithm>

#include "core/Database.h"
#include "host/EngineHost.h"
#include "server/AccessLog.h"
#include "server/ApiKeyStore.h"
#include "server/ApiServer.h"
#include "server/KeyAuthenticator.h"
#include "server/ServerSchema.h"
#include "server/ServerStore.h"
#include "settings/AppSettings.h"

namespace hearth::app {

using namespace hearth::app::server;

ServerController::ServerController(AppSettings& settings, EngineHost& engine, QObject* parent)
    : QObject(parent), settings_(settings), engine_(engine), auth_(std::make_shared<KeyAuthenticator>()) {
    connect(&engine_, &EngineHost::stateChanged, this, &ServerController::syncModel);
    connect(&engine_, &EngineHost::loadProgress, this, [this](double f) {
        if (server_) server_->setLoading(float(f));
    });
    connect(&engine_, &EngineHost::loadFailed, this, [this](const QString& message) {
        if (server_) server_->setLoadFailed(message.toStdString());
    });
}

ServerController::~ServerController() {
    stop();
    store_.reset();
    if (!connection_.isEmpty()) Database::close(connection_);
}

Status ServerController::open(const QString& databasePath) {
    if (isOpen()) return Status::success();
    databasePath_ = databasePath;
    const QString name = Database::uniqueConnectionName("server-ui");
    auto db = Database::open(databasePath_, name, serverSchema());
    if (!db) return db.error();
    connection_ = name;
    auto store = ServerStore::open(databasePath_, auth_);
    if (!store) return store.error();
    store_ = std::move(*store);
    syncKeys();
    const ServerBindMode wanted = settings_.serverBindMode();
    if (wanted != ServerBindMode::Off)
        if (Status s = start(wanted); !s) {
            settings_.setServerBindMode(ServerBindMode::Off);
            return s;
        }
    return Status::success();
}

void ServerController::syncKeys() {
    if (!isOpen()) return;
    ApiKeyStore keysDb(QSqlDatabase::database(connection_));
    auto active = keysDb.list(false);
    if (active) auth_->setStoredKeys(*active);
}

void ServerController::syncModel() {
    if (!server_) return;
    switch (engine_.state()) {
        case EngineHost::State::Ready: server_->setModel(engine_.sharedBackend()); break;
        case EngineHost::State::Loading: server_->setLoading(0); break;
        case EngineHost::State::Empty: server_->setModel(nullptr); break;
    }
}

int ServerController::port() const { return server_ ? server_->port() : settings_.serverPort(); }

QStringList ServerController::lanAddresses() {
    QStringList out;
    for (const QHostAddress& a : QNetworkInterface::allAddresses())
        if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback() && !a.isLinkLocal()) out << a.toString();
    return out;
}

QString ServerController::baseUrl() const {
    QString host = QStringLiteral("127.0.0.1");
    if (mode_ == ServerBindMode::Lan) {
        const QStringList lan = lanAddresses();
        if (!lan.isEmpty()) host = lan.first();
    }
    return QStringLiteral("http://%1:%2/v1").arg(host).arg(port());
}

QStringList ServerController::corsOrigins() const {
    QStringList out;
    for (const QString& o : settings_.store().value(kCorsKey).toString().split(',', Qt::SkipEmptyParts))
        out << o.trimmed();
    return out;
}

Status ServerController::setCorsOrigins(const QStringList& origins) {
    QStringList clean;
    for (const QString& o : origins) {
        const QString t = o.trimmed();
        if (t.isEmpty()) continue;
        if (t != QLatin1String("*") && !(t.startsWith("http://") || t.startsWith("https://")))
            return makeError(ErrorCode::InvalidArgument, ("an origin looks like https://host[:port]: " + t).toStdString());
        clean << t;
    }
    settings_.store().setValue(kCorsKey, clean.join(','));
    if (server_) {
        const ServerBindMode m = mode_;
        stop();
        return start(m);
    }
    return Status::success();
}

Status ServerController::start(ServerBindMode mode) {
    ServerConfig cfg;
    cfg.host = mode == ServerBindMode::Lan ? "0.0.0.0" : "127.0.0.1";
    cfg.port = settings_.serverPort();
    for (const QString& o : corsOrigins()) cfg.allowedOrigins.push_back(o.toStdString());
    cfg.maxInFlight = 2 * std::max(1, engine_.config().maxSeqs) + 32;
    std::shared_ptr<ServerStore> store = store_;
    auto server = std::make_unique<ApiServer>(cfg, auth_, [store](const AccessLogEntry& e) {
        if (store) store->log(e);
    });
    if (Status s = server->start(); !s) return s;
    server_ = std::move(server);
    mode_ = mode;
    syncModel();
    return Status::success();
}

void ServerController::stop() {
    if (!server_) return;
    server_->stop();
    server_.reset();
    mode_ = ServerBindMode::Off;
}

Status ServerController::setMode(ServerBindMode mode) {
    if (mode == mode_) return Status::success();
    if (!isOpen()) return makeError(ErrorCode::Unavailable, "the server database is not open");
    if (mode == ServerBindMode::Lan && activeKeyCount() == 0)
        return makeError(ErrorCode::InvalidArgument,
                         "sharing on the network needs at least one API key: create a key first");
    const ServerBindMode before = mode_;
    stop();
    if (mode != ServerBindMode::Off) {
        if (Status s = start(mode); !s) {
            if (before != ServerBindMode::Off) (void)start(before);  // keep what worked
            emit modeChanged(mode_);
            return s;
        }
    }
    settings_.setServerBindMode(mode);
    emit modeChanged(mode_);
    return Status::success();
}

Result<QString> ServerController::createKey(const QString& name) {
    if (!isOpen()) return makeError(ErrorCode::Unavailable, "the server database is not open");
    ApiKeyStore keysDb(QSqlDatabase::database(connection_));
    auto created = keysDb.create(name.trimmed().toStdString());
    if (!created) return created.error();
    syncKeys();
    emit keysChanged();
    return QString::fromStdString(created->key);
}

Status ServerController::revokeKey(const QString& keyId) {
    if (!isOpen()) return makeError(ErrorCode::Unavailable, "the server database is not open");
    ApiKeyStore keysDb(QSqlDatabase::database(connection_));
    HEARTH_TRY(keysDb.revoke(keyId.toStdString()));
    syncKeys();
    emit keysChanged();
    // Without keys the network may not reach the API any more.
    if (mode_ == ServerBindMode::Lan && activeKeyCount() == 0) {
        stop();
        settings_.setServerBindMode(ServerBindMode::Off);
        emit modeChanged(mode_);
    }
    return Status::success();
}

QList<ApiKeyRecord> ServerController::keys(bool includeRevoked) const {
    if (!isOpen()) return {};
    ApiKeyStore keysDb(QSqlDatabase::database(connection_));
    auto list = keysDb.list(includeRevoked);
    return list ? QList<ApiKeyRecord>(list->begin(), list->end()) : QList<ApiKeyRecord>{};
}

int ServerController::activeKeyCount() const { return int(keys(false).size()); }

QList<AccessLogEntry> ServerController::recentLog(int limit) const {
    if (!isOpen()) return {};
    AccessLog log(QSqlDatabase::database(connection_));
    auto entries = log.recent(limit);
    return entries ? QList<AccessLogEntry>(entries->begin(), entries->end()) : QList<AccessLogEntry>{};
}

QList<ServerClient> ServerController::recentClients(int withinSeconds) const {
    const qint64 since = QDateTime::currentMSecsSinceEpoch() - qint64(withinSeconds) * 1000;
    QMap<QString, ServerClient> byClient;
    for (const AccessLogEntry& e : recentLog(1000)) {
        if (e.atMs < since) continue;
        const QString key = QString::fromStdString(e.client) + '\n' + QString::fromStdString(e.keyName);
        ServerClient& c = byClient[key];
        c.address = QString::fromStdString(e.client);
        c.keyName = QString::fromStdString(e.keyName);
        ++c.requests;
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(e.atMs);
        if (!c.lastSeen.isValid() || at > c.lastSeen) c.lastSeen = at;
    }
    return byClient.values();
}

int ServerController::activeStreams() const { return server_ ? server_->context().activeStreams() : 0; }

}  // namespace hearth::app
