#pragma once
// The desktop app's API server switch: off -> this computer only (127.0.0.1) -> the office LAN
// (0.0.0.0), on the port from the settings, serving whatever model the engine host has loaded
// (503 "loading" while it loads, "no model is loaded" when none is). API keys (create: the key is
// shown once; revoke) live in server.sqlite beside `hearth-cli keys`; the access log and the
// clients seen recently are read back from there for the Server page.
//
// Threads: a ServerController lives on the GUI thread; the ApiServer runs its own threads and
// ServerStore its store thread; the GUI thread reads keys and the log on its own connection.
// Invariants: mode() is Off exactly when no ApiServer is running; the LAN mode is refused while no
// active key exists (the ApiServer refuses it too); after a key change the authenticator holds
// the database's active keys before the call returns, so a LAN switch right after creating a key
// works; setModel is applied on every EngineHost state change.

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "hearth/result.h"
#include "server/AccessLogEntry.h"
#include "server/ApiKeyRecord.h"
#include "settings/ServerBindMode.h"

namespace hearth::app {

class AppSettings;
class EngineHost;
namespace server {
class ApiServer;
class KeyAuthenticator;
class ServerStore;
}  // namespace server

struct ServerClient {
    QString address;
    QString keyName;
    int requests = 0;
    QDateTime lastSeen;
};

class ServerController : public QObject {
    Q_OBJECT
public:
    static constexpr const char* kCorsKey = "server/corsOrigins";  // comma-separated origins

    ServerController(AppSettings& settings, EngineHost& engine, QObject* parent = nullptr);
    ~ServerController() override;

    // Opens server.sqlite (keys, access log). The server starts in the mode the settings hold.
    Status open(const QString& databasePath);
    bool isOpen() const { return !connection_.isEmpty(); }

    Status setMode(ServerBindMode mode);
    ServerBindMode mode() const { return mode_; }
    int port() const;
    // "http://192.168.1.20:8080/v1" for colleagues (LAN), "http://127.0.0.1:8080/v1" (loopback).
    QString baseUrl() const;
    static QStringList lanAddresses();  // this machine's non-loopback IPv4 addresses

    QStringList corsOrigins() const;
    Status setCorsOrigins(const QStringList& origins);  // restarts a running server

    // The full key, to show once and copy.
    Result<QString> createKey(const QString& name);
    Status revokeKey(const QString& keyId);
    QList<server::ApiKeyRecord> keys(bool includeRevoked = false) const;
    int activeKeyCount() const;

    QList<server::AccessLogEntry> recentLog(int limit = 200) const;
    QList<ServerClient> recentClients(int withinSeconds = 600) const;
    int activeStreams() const;

signals:
    void modeChanged(hearth::app::ServerBindMode mode);
    void keysChanged();
    void failed(const QString& message);

private:
    Status start(ServerBindMode mode);
    void stop();
    void syncKeys();
    void syncModel();

    AppSettings& settings_;
    EngineHost& engine_;
    QString databasePath_;
    QString connection_;
    std::shared_ptr<server::KeyAuthenticator> auth_;
    std::shared_ptr<server::ServerStore> store_;
    std::unique_ptr<server::ApiServer> server_;
    ServerBindMode mode_ = ServerBindMode::Off;
};

}  // namespace hearth::app
