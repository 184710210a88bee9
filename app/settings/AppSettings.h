#pragma once
// Typed access to the application's QSettings. Every key lives here, with its default, so the UI,
// the services and the tests agree on names and types.
//
// Invariants: getters never return an unusable value (a missing or malformed entry yields the
// default); setters reject bad values with an Error and leave the stored value unchanged; every
// successful change emits changed(key) with the key constant below.

#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QString>
#include <QUrl>
#include <memory>

#include "hearth/result.h"
#include "settings/ServerBindMode.h"

namespace hearth::app {

class AppSettings : public QObject {
    Q_OBJECT
public:
    static constexpr const char* kHubBaseUrl = "hub/baseUrl";
    static constexpr const char* kModelsFolder = "paths/models";
    static constexpr const char* kDownloadFolder = "paths/downloads";
    static constexpr const char* kDataFolder = "paths/data";
    static constexpr const char* kServerPort = "server/port";
    static constexpr const char* kServerBindMode = "server/bindMode";
    static constexpr const char* kLanguage = "ui/language";
    static constexpr const char* kWindowGeometry = "ui/windowGeometry";
    static constexpr const char* kWindowState = "ui/windowState";
    static constexpr const char* kDefaultHubUrl = "https://huggingface.co";
    static constexpr int kDefaultServerPort = 8080;

    // The user's settings (QSettings' native location for organisation "Hearth", app "hearth").
    explicit AppSettings(QObject* parent = nullptr);
    // An INI file at `iniPath` (tests, portable installs).
    explicit AppSettings(const QString& iniPath, QObject* parent = nullptr);
    ~AppSettings() override;

    // Base of the hub's web and API URLs (https://huggingface.co, a mirror, or a loopback server).
    QUrl hubBaseUrl() const;
    Status setHubBaseUrl(const QUrl& url);  // http or https with a host

    // Where models live; the library scans it. Default: <data folder>/models.
    QString modelsFolder() const;
    Status setModelsFolder(const QString& path);
    // Where downloads land. Default: the models folder.
    QString downloadFolder() const;
    Status setDownloadFolder(const QString& path);
    // Databases (library, chats, download queue). Default: QStandardPaths::AppDataLocation.
    QString dataFolder() const;
    Status setDataFolder(const QString& path);

    int serverPort() const;
    Status setServerPort(int port);  // 1..65535
    ServerBindMode serverBindMode() const;
    void setServerBindMode(ServerBindMode mode);

    QString language() const;  // "en" or "ko"
    Status setLanguage(const QString& code);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& blob);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& blob);

    // The underlying store, for TokenStore's fallback and for sync() in tests.
    QSettings& store() { return *settings_; }

signals:
    void changed(const QString& key);

private:
    Status setPath(const char* key, const QString& path);
    void write(const char* key, const QVariant& value);
    std::unique_ptr<QSettings> settings_;
};

}  // namespace hearth::app
