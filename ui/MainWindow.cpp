#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>

#include "AppIcon.h"
#include "AppVersion.h"
#include "ChatPage.h"
#include "DashboardPage.h"
#include "DesktopServices.h"
#include "DiscoverPage.h"
#include "DownloadsPage.h"
#include "LanguageManager.h"
#include "LibraryPage.h"
#include "LoadDialog.h"
#include "ServerPage.h"
#include "SettingsDialog.h"
#include "TrayIcon.h"
#include "WelcomePage.h"
#include "gpu/GpuMonitor.h"
#include "host/EngineHost.h"
#include "host/ServerController.h"
#include "library/ModelLibrary.h"
#include "settings/AppSettings.h"

namespace hearth::ui {

MainWindow::MainWindow(DesktopServices& services, QWidget* parent) : QMainWindow(parent), services_(services) {
    setObjectName("mainWindow");
    setWindowIcon(AppIcon::icon());

    nav_ = new QListWidget(this);
    nav_->setObjectName("navigation");
    nav_->setFixedWidth(180);
    nav_->setIconSize(QSize(20, 20));
    stack_ = new QStackedWidget(this);
    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(nav_);
    layout->addWidget(stack_, 1);
    setCentralWidget(central);

    welcome_ = new WelcomePage;
    discover_ = new DiscoverPage(services_.hub(), services_.downloads(), services_.gpus(), services_.settings());
    downloads_ = new DownloadsPage(services_.downloads());
    library_ = new LibraryPage(services_.library());
    chat_ = new ChatPage(services_.chats(), services_.engine());
    dashboard_ = new DashboardPage(services_.engine(), services_.gpus());
    server_ = new ServerPage(services_.server(), services_.settings());
    addPage(PageId::Welcome, welcome_);
    addPage(PageId::Discover, discover_);
    addPage(PageId::Downloads, downloads_);
    addPage(PageId::Library, library_);
    addPage(PageId::Chat, chat_);
    addPage(PageId::Dashboard, dashboard_);
    addPage(PageId::Server, server_);

    connect(nav_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= order_.size()) return;
        stack_->setCurrentIndex(row);
        if (Page* p = page(order_[row])) p->activated();
    });
    connect(welcome_, &WelcomePage::libraryRequested, this, [this] { showPage(PageId::Library); });
    connect(welcome_, &WelcomePage::discoverRequested, this, [this] { showPage(PageId::Discover); });
    connect(discover_, &DiscoverPage::settingsRequested, this, &MainWindow::openSettings);
    connect(discover_, &DiscoverPage::downloadsQueued, this, [this](int n) {
        statusBar()->showMessage(tr("%n file(s) queued; see Downloads.", nullptr, n), 8000);
    });
    connect(welcome_, &WelcomePage::addFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Add a model file"), QString(),
                                                          tr("GGUF models (*.gguf);;All files (*)"));
        if (path.isEmpty()) return;
        showPage(PageId::Library);
        library_->addFile(path);
    });
    connect(library_, &LibraryPage::loadRequested, this, &MainWindow::openLoadDialog);
    connect(chat_, &ChatPage::libraryRequested, this, [this] { showPage(PageId::Library); });

    engineStatus_ = new QLabel(this);
    engineStatus_->setObjectName("engineStatus");
    statusBar()->addWidget(engineStatus_, 1);
    serverStatus_ = new QLabel(this);
    serverStatus_->setObjectName("serverStatus");
    statusBar()->addPermanentWidget(serverStatus_);
    connect(&services_.server(), &app::ServerController::modeChanged, this, &MainWindow::updateStatus);
    connect(&services_.engine(), &app::EngineHost::stateChanged, this, &MainWindow::updateStatus);

    tray_ = new TrayIcon(this);
    connect(tray_, &TrayIcon::showWindowRequested, this, [this] {
        showNormal();
        raise();
        activateWindow();
    });
    connect(tray_, &TrayIcon::quitRequested, this, &QWidget::close);

    buildMenus();
    retranslate();
    restoreWindowState();

    const bool firstRun = !services_.library().isOpen() || services_.library().models().isEmpty();
    showPage(firstRun ? PageId::Welcome : PageId::Library);
    for (const QString& w : services_.warnings()) statusBar()->showMessage(w, 15000);
}

MainWindow::~MainWindow() = default;

void MainWindow::addPage(PageId id, Page* page) {
    pages_.insert(int(id), page);
    order_.append(id);
    stack_->addWidget(page);
    auto* item = new QListWidgetItem(page->title(), nav_);
    item->setSizeHint(QSize(0, 36));
    connect(page, &Page::titleChanged, this, [this, id, item] { item->setText(this->page(id)->title()); });
}

QList<MainWindow::PageId> MainWindow::pageIds() const { return order_; }

void MainWindow::showPage(PageId id) {
    const int row = int(order_.indexOf(id));
    if (row >= 0) nav_->setCurrentRow(row);
}

MainWindow::PageId MainWindow::currentPage() const {
    const int row = nav_->currentRow();
    return row >= 0 && row < order_.size() ? order_[row] : PageId::Welcome;
}

void MainWindow::buildMenus() {
    fileMenu_ = menuBar()->addMenu(QString());
    addFileAction_ = fileMenu_->addAction(QString(), this, [this] {
        showPage(PageId::Library);
        const QString path = QFileDialog::getOpenFileName(this, tr("Add a model file"), QString(),
                                                          tr("GGUF models (*.gguf);;All files (*)"));
        if (!path.isEmpty()) library_->addFile(path);
    });
    addFolderAction_ = fileMenu_->addAction(QString(), this, [this] {
        showPage(PageId::Library);
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Add a folder of models"));
        if (!folder.isEmpty()) library_->addFolder(folder);
    });
    fileMenu_->addSeparator();
    settingsAction_ = fileMenu_->addAction(QString(), this, &MainWindow::openSettings);
    settingsAction_->setShortcut(QKeySequence::Preferences);
    fileMenu_->addSeparator();
    quitAction_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    quitAction_->setShortcut(QKeySequence::Quit);

    modelMenu_ = menuBar()->addMenu(QString());
    loadAction_ = modelMenu_->addAction(QString(), this, [this] {
        showPage(PageId::Library);
        if (library_->selectedId() > 0) openLoadDialog(library_->selectedId());
    });
    unloadAction_ = modelMenu_->addAction(QString(), this, [this] { services_.engine().unload(); });

    chatMenu_ = menuBar()->addMenu(QString());
    newChatAction_ = chatMenu_->addAction(QString(), this, &MainWindow::newChat);
    newChatAction_->setObjectName("newChatAction");
    newChatAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    newChatAction_->setShortcutContext(Qt::ApplicationShortcut);

    languageMenu_ = menuBar()->addMenu(QString());
    languageGroup_ = new QActionGroup(this);
    for (const QString& code : LanguageManager::available()) {
        QAction* a = languageMenu_->addAction(LanguageManager::nativeName(code));
        a->setCheckable(true);
        a->setData(code);
        a->setChecked(code == services_.languages().language());
        languageGroup_->addAction(a);
    }
    connect(languageGroup_, &QActionGroup::triggered, this, [this](QAction* a) {
        const QString code = a->data().toString();
        if (Status s = services_.languages().setLanguage(code); !s) {
            statusBar()->showMessage(QString::fromStdString(s.error().message), 10000);
            return;
        }
        (void)services_.settings().setLanguage(code);
    });
    connect(&services_.languages(), &LanguageManager::languageChanged, this, [this](const QString& code) {
        for (QAction* a : languageGroup_->actions()) a->setChecked(a->data().toString() == code);
    });

    helpMenu_ = menuBar()->addMenu(QString());
    aboutAction_ = helpMenu_->addAction(QString(), this, [this] {
        QMessageBox::about(this, tr("About Hearth"),
                           tr("<b>Hearth %1</b><p>Runs language models on the GPUs an office already has, "
                              "for several people at once.</p>")
                               .arg(QString::fromLatin1(app::versionString())));
    });
}

void MainWindow::retranslate() {
    setWindowTitle(tr("Hearth"));
    fileMenu_->setTitle(tr("&File"));
    addFileAction_->setText(tr("Add model file…"));
    addFolderAction_->setText(tr("Add model folder…"));
    settingsAction_->setText(tr("Settings…"));
    quitAction_->setText(tr("&Quit"));
    modelMenu_->setTitle(tr("&Model"));
    loadAction_->setText(tr("Load selected model…"));
    unloadAction_->setText(tr("Unload model"));
    chatMenu_->setTitle(tr("&Chat"));
    newChatAction_->setText(tr("New chat"));
    languageMenu_->setTitle(tr("&Language"));
    helpMenu_->setTitle(tr("&Help"));
    aboutAction_->setText(tr("About Hearth"));
    tray_->retranslate();
    updateStatus();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::updateStatus() {
    const app::EngineHost& e = services_.engine();
    switch (e.state()) {
        case app::EngineHost::State::Empty: engineStatus_->setText(tr("No model loaded")); break;
        case app::EngineHost::State::Loading: engineStatus_->setText(tr("Loading a model…")); break;
        case app::EngineHost::State::Ready: engineStatus_->setText(tr("Model: %1").arg(e.modelName())); break;
    }
    unloadAction_->setEnabled(e.state() != app::EngineHost::State::Empty);
    const app::ServerController& server = services_.server();
    const QString address = server.mode() == app::ServerBindMode::Off ? QString() : server.baseUrl();
    tray_->setServerState(server.mode(), address);
    serverStatus_->setText(server.mode() == app::ServerBindMode::Off ? tr("API off")
                           : server.mode() == app::ServerBindMode::Loopback ? tr("API on this computer: %1").arg(address)
                                                                             : tr("API shared: %1").arg(address));
}

void MainWindow::restoreWindowState() {
    const QByteArray geometry = services_.settings().windowGeometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) resize(1200, 780);
    const QByteArray state = services_.settings().windowState();
    if (!state.isEmpty()) restoreState(state);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    services_.settings().setWindowGeometry(saveGeometry());
    services_.settings().setWindowState(saveState());
    QMainWindow::closeEvent(event);
}

LoadDialog* MainWindow::createLoadDialog(qint64 modelId) {
    auto record = services_.library().model(modelId);
    if (!record) return nullptr;
    auto* dialog = new LoadDialog(*record, services_.gpus(), services_.engine(), this);
    connect(dialog, &QDialog::accepted, this, [this, modelId] {
        (void)services_.library().markUsed(modelId);
        showPage(PageId::Chat);
    });
    return dialog;
}

void MainWindow::openLoadDialog(qint64 modelId) {
    LoadDialog* dialog = createLoadDialog(modelId);
    if (!dialog) return;
    dialog->exec();
    dialog->deleteLater();
}

void MainWindow::openSettings() {
    SettingsDialog dialog(services_.settings(), services_.tokens(), services_.languages(), this);
    dialog.exec();
}

void MainWindow::newChat() {
    showPage(PageId::Chat);
    chat_->newConversation();
}

}  // namespace hearth::ui
