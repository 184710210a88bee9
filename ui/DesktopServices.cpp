#include "DesktopServices.h"

#include <QDir>

#include "LanguageManager.h"
#include "chat/ChatStore.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"
#include "gpu/GpuMonitor.h"
#include "host/EngineHost.h"
#include "host/ServerController.h"
#include "hub/HubClient.h"
#include "settings/AppSettings.h"
#include "settings/TokenStore.h"

namespace hearth::ui {

DesktopServices::DesktopServices(const Options& options, QObject* parent) : QObject(parent), options_(options) {
    settings_ = options.settingsFile.isEmpty() ? std::make_unique<app::AppSettings>()
                                               : std::make_unique<app::AppSettings>(options.settingsFile);
    tokens_ = std::make_unique<app::TokenStore>(
        *settings_, options.useKeychain ? app::TokenStore::Mode::Auto : app::TokenStore::Mode::SettingsOnly);
    library_ = std::make_unique<app::ModelLibrary>();
    chats_ = std::make_unique<app::ChatStore>();
    gpus_ = options.nvmlLibrary.isEmpty() ? std::make_unique<app::GpuMonitor>()
                                          : std::make_unique<app::GpuMonitor>(nullptr, options.nvmlLibrary);
    engine_ = options.backendFactory ? std::make_unique<app::EngineHost>(nullptr, options.backendFactory)
                                     : std::make_unique<app::EngineHost>();
    languages_ = std::make_unique<LanguageManager>();
    server_ = std::make_unique<app::ServerController>(*settings_, *engine_);
    hub_ = std::make_unique<app::HubClient>();
    downloads_ = std::make_unique<app::DownloadManager>();
    downloads_->setLibrary(library_.get());
    connect(settings_.get(), &app::AppSettings::changed, this, [this](const QString& key) {
        if (key == QLatin1String(app::AppSettings::kHubBaseUrl)) applyHubSettings();
    });
    connect(tokens_.get(), &app::TokenStore::tokenChanged, this, &DesktopServices::applyHubSettings);
}

void DesktopServices::applyHubSettings() {
    hub_->setBaseUrl(settings_->hubBaseUrl());
    hub_->setToken(tokens_->token());
    downloads_->setHubToken(settings_->hubBaseUrl(), tokens_->token());
}

DesktopServices::~DesktopServices() {
    // The server goes first (its requests use the engine), then the engine: its sinks feed the
    // chat view, which the store backs.
    server_.reset();
    engine_.reset();
    downloads_.reset();
    hub_.reset();
    gpus_.reset();
    chats_.reset();
    library_.reset();
}

void DesktopServices::open() {
    const QString data = settings_->dataFolder();
    if (!QDir().mkpath(data)) warnings_ << tr("Cannot create the data folder %1.").arg(data);
    if (Status s = library_->open(data + QStringLiteral("/library.sqlite")); !s)
        warnings_ << tr("The model library could not be opened: %1").arg(QString::fromStdString(s.error().message));
    if (Status s = chats_->open(data + QStringLiteral("/chats.sqlite")); !s)
        warnings_ << tr("The chat history could not be opened: %1").arg(QString::fromStdString(s.error().message));
    if (Status s = server_->open(data + QStringLiteral("/server.sqlite")); !s)
        warnings_ << tr("The API server could not start: %1").arg(QString::fromStdString(s.error().message));
    tokens_->load();
    applyHubSettings();
    if (Status s = downloads_->open(data + QStringLiteral("/downloads.sqlite")); !s)
        warnings_ << tr("The download queue could not be opened: %1").arg(QString::fromStdString(s.error().message));
    if (options_.startGpuMonitor) gpus_->start(500);
    if (Status s = languages_->setLanguage(settings_->language()); !s)
        warnings_ << QString::fromStdString(s.error().message);
}

}  // namespace hearth::ui
