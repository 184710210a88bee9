#pragma once
// The desktop app's window: a navigation list of pages (Welcome, Discover, Downloads, Library,
// Chat, Dashboard, Server) over a stacked widget, menus (file, model, language, help), a status
// bar with the model and server state, the tray icon, and the window state restored from the
// settings. The Welcome page is shown first while the library is empty (a normal first run).
//
// Invariants: pages_ and the navigation list have the same order (PageId values); only the GUI
// thread touches any of it.

#include <QHash>
#include <QMainWindow>

namespace hearth::app {
class ModelRecord;
}

class QAction;
class QActionGroup;
class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;

namespace hearth::ui {

class ChatPage;
class DashboardPage;
class DesktopServices;
class DiscoverPage;
class DownloadsPage;
class LibraryPage;
class Page;
class ServerPage;
class TrayIcon;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class PageId { Welcome, Discover, Downloads, Library, Chat, Dashboard, Server };

    explicit MainWindow(DesktopServices& services, QWidget* parent = nullptr);
    ~MainWindow() override;

    void showPage(PageId id);
    PageId currentPage() const;
    Page* page(PageId id) const { return pages_.value(int(id)); }
    LibraryPage* libraryPage() const { return library_; }
    DiscoverPage* discoverPage() const { return discover_; }
    DownloadsPage* downloadsPage() const { return downloads_; }
    ChatPage* chatPage() const { return chat_; }
    DashboardPage* dashboardPage() const { return dashboard_; }
    ServerPage* serverPage() const { return server_; }
    TrayIcon* tray() const { return tray_; }
    QList<PageId> pageIds() const;

    // Opens the load dialog for a library model (modal; returns when it closes).
    void openLoadDialog(qint64 modelId);
    // The load dialog as a non-modal child (tests, the screenshot tour); null for an unknown id.
    class LoadDialog* createLoadDialog(qint64 modelId);
    void newChat();
    void openSettings();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void addPage(PageId id, Page* page);
    void buildMenus();
    void retranslate();
    void updateStatus();
    void restoreWindowState();

    DesktopServices& services_;
    QListWidget* nav_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QHash<int, Page*> pages_;
    QList<PageId> order_;
    WelcomePage* welcome_ = nullptr;
    DiscoverPage* discover_ = nullptr;
    DownloadsPage* downloads_ = nullptr;
    LibraryPage* library_ = nullptr;
    ChatPage* chat_ = nullptr;
    DashboardPage* dashboard_ = nullptr;
    ServerPage* server_ = nullptr;
    QLabel* serverStatus_ = nullptr;
    TrayIcon* tray_ = nullptr;
    QLabel* engineStatus_ = nullptr;

    QMenu* fileMenu_ = nullptr;
    QMenu* modelMenu_ = nullptr;
    QMenu* chatMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QAction* addFileAction_ = nullptr;
    QAction* addFolderAction_ = nullptr;
    QAction* settingsAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* loadAction_ = nullptr;
    QAction* unloadAction_ = nullptr;
    QAction* newChatAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QActionGroup* languageGroup_ = nullptr;
};

}  // namespace hearth::ui
