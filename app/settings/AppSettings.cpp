#include "settings/AppSettings.h"

#include <QDir>
#include <QStandardPaths>

namespace hearth::app {

AppSettings::AppSettings(QObject* parent)
    : QObject(parent), settings_(std::make_unique<QSettings>("Hearth", "hearth")) {}

AppSettings::AppSettings(const QString& iniPath, QObject* parent)
    : QObject(parent), settings_(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {}

AppSettings::~AppSettings() = default;

void AppSettings::write(const char* key, const QVariant& value) {
    if (settings_->value(key) == value && settings_->contains(key)) return;
    settings_->setValue(key, value);
    emit changed(QString::fromLatin1(key));
}

QUrl AppSettings::hubBaseUrl() const {
    const QUrl url(settings_->value(kHubBaseUrl).toString());
    if (url.isValid() && (url.scheme() == "https" || url.scheme() == "http") && !url.host().isEmpty())
        return url;
    return QUrl(kDefaultHubUrl);
}

Status AppSettings::setHubBaseUrl(const QUrl& url) {
    if (!url.isValid() || (url.scheme() != "https" && url.scheme() != "http") || url.host().isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         ("hub URL must be http(s)://host[:port]: " + url.toString()).toStdString());
    QUrl clean = url.adjusted(QUrl::StripTrailingSlash | QUrl::RemoveQuery | QUrl::RemoveFragment);
    if (clean.path() == "/") clean.setPath(QString());
    write(kHubBaseUrl, clean.toString());
    return Status::success();
}

Status AppSettings::setPath(const char* key, const QString& path) {
    if (path.trimmed().isEmpty() || !QDir::isAbsolutePath(path))
        return makeError(ErrorCode::InvalidArgument, ("need an absolute folder path: " + path).toStdString());
    write(key, QDir::cleanPath(path));
    return Status::success();
}

QString AppSettings::dataFolder() const {
    const QString stored = settings_->value(kDataFolder).toString();
    if (!stored.isEmpty() && QDir::isAbsolutePath(stored)) return stored;
    QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (base.isEmpty()) base = QDir::homePath() + "/.local/share/hearth";
    return base;
}

Status AppSettings::setDataFolder(const QString& path) { return setPath(kDataFolder, path); }

QString AppSettings::modelsFolder() const {
    const QString stored = settings_->value(kModelsFolder).toString();
    if (!stored.isEmpty() && QDir::isAbsolutePath(stored)) return stored;
    return dataFolder() + "/models";
}

Status AppSettings::setModelsFolder(const QString& path) { return setPath(kModelsFolder, path); }

QString AppSettings::downloadFolder() const {
    const QString stored = settings_->value(kDownloadFolder).toString();
    if (!stored.isEmpty() && QDir::isAbsolutePath(stored)) return stored;
    return modelsFolder();
}

Status AppSettings::setDownloadFolder(const QString& path) { return setPath(kDownloadFolder, path); }

int AppSettings::serverPort() const {
    bool ok = false;
    const int port = settings_->value(kServerPort).toInt(&ok);
    return ok && port > 0 && port <= 65535 ? port : kDefaultServerPort;
}

Status AppSettings::setServerPort(int port) {
    if (port <= 0 || port > 65535)
        return makeError(ErrorCode::InvalidArgument, "port must be 1..65535, got " + std::to_string(port));
    write(kServerPort, port);
    return Status::success();
}

ServerBindMode AppSettings::serverBindMode() const {
    const QString mode = settings_->value(kServerBindMode).toString();
    if (mode == "loopback") return ServerBindMode::Loopback;
    if (mode == "lan") return ServerBindMode::Lan;
    return ServerBindMode::Off;
}

void AppSettings::setServerBindMode(ServerBindMode mode) {
    const char* name = mode == ServerBindMode::Loopback ? "loopback" : mode == ServerBindMode::Lan ? "lan" : "off";
    write(kServerBindMode, QString::fromLatin1(name));
}

QString AppSettings::language() const {
    const QString code = settings_->value(kLanguage).toString();
    return code == "ko" ? code : QStringLiteral("en");
}

Status AppSettings::setLanguage(const QString& code) {
    if (code != "en" && code != "ko")
        return makeError(ErrorCode::InvalidArgument, ("unsupported language: " + code).toStdString());
    write(kLanguage, code);
    return Status::success();
}

QByteArray AppSettings::windowGeometry() const { return settings_->value(kWindowGeometry).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray& blob) { write(kWindowGeometry, blob); }
QByteArray AppSettings::windowState() const { return settings_->value(kWindowState).toByteArray(); }
void AppSettings::setWindowState(const QByteArray& blob) { write(kWindowState, blob); }

}  // namespace hearth::app
