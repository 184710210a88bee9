#pragma once
// Everything the desktop app's pages talk to, created and owned in one place: settings, the hub
// token, the model library, the chat store, the GPU monitor and the engine host (and the hub
// client, downloads and API server as those services land). main() makes one; tests and the
// screenshot tour make one on a temporary settings file and data folder.
//
// Invariants: every service pointer is valid for the object's lifetime; open() never fails the
// whole app: a database that cannot be opened leaves that service closed and adds a line to
// warnings(), and the page that needs it says so.

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "host/BackendFactory.h"

namespace hearth::app {
class AppSettings;
class ChatStore;
class DownloadManager;
class EngineHost;
class GpuMonitor;
class HubClient;
class ModelLibrary;
class ServerController;
class TokenStore;
}  // namespace hearth::app

namespace hearth::ui {

class LanguageManager;

class DesktopServices : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString settingsFile;          // INI file; empty: the user's native settings
        QString nvmlLibrary;           // empty: the driver's libnvidia-ml.so.1
        bool startGpuMonitor = true;   // poll twice a second from the start
        bool useKeychain = true;       // false: the hub token stays in the settings file (tests)
        app::BackendFactory backendFactory;  // empty: the real engine
    };

    explicit DesktopServices(const Options& options, QObject* parent = nullptr);
    ~DesktopServices() override;

    // Opens the databases under the settings' data folder and starts the GPU monitor.
    void open();
    QStringList warnings() const { return warnings_; }

    app::AppSettings& settings() const { return *settings_; }
    app::TokenStore& tokens() const { return *tokens_; }
    app::ModelLibrary& library() const { return *library_; }
    app::ChatStore& chats() const { return *chats_; }
    app::GpuMonitor& gpus() const { return *gpus_; }
    app::EngineHost& engine() const { return *engine_; }
    app::HubClient& hub() const { return *hub_; }
    app::DownloadManager& downloads() const { return *downloads_; }
    app::ServerController& server() const { return *server_; }
    LanguageManager& languages() const { return *languages_; }

private:
    void applyHubSettings();
    Options options_;
    QStringList warnings_;
    std::unique_ptr<app::AppSettings> settings_;
    std::unique_ptr<app::TokenStore> tokens_;
    std::unique_ptr<app::ModelLibrary> library_;
    std::unique_ptr<app::ChatStore> chats_;
    std::unique_ptr<app::GpuMonitor> gpus_;
    std::unique_ptr<app::EngineHost> engine_;
    std::unique_ptr<app::HubClient> hub_;
    std::unique_ptr<app::DownloadManager> downloads_;
    std::unique_ptr<app::ServerController> server_;
    std::unique_ptr<LanguageManager> languages_;
};

}  // namespace hearth::ui
