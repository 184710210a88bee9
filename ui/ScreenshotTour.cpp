#include "ScreenshotTour.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QTableView>
#include <QWidget>
#include <cstdio>

#include "ChatPage.h"
#include "DesktopServices.h"
#include "DiscoverPage.h"
#include "DownloadsPage.h"
#include "HubSearchModel.h"
#include "HubVariantTree.h"
#include "LibraryPage.h"
#include "LoadDialog.h"
#include "MainWindow.h"
#include "ServerPage.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"
#include "host/ChatRunner.h"
#include "host/EngineHost.h"
#include "host/ServerController.h"

namespace hearth::ui {

using Id = MainWindow::PageId;

ScreenshotTour::ScreenshotTour(MainWindow& window, DesktopServices& services, TourOptions options)
    : window_(window), services_(services), options_(std::move(options)) {}

template <class Pred>
bool ScreenshotTour::settleUntil(int ms, Pred done) {
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (done()) return true;
    }
    return done();
}

void ScreenshotTour::settle(int ms) {
    settleUntil(ms, [] { return false; });
}

bool ScreenshotTour::save(QWidget* widget, const QString& name) {
    const QString path = QDir(options_.folder).filePath(name + QStringLiteral(".png"));
    if (!widget->grab().save(path)) {
        std::fprintf(stderr, "error: cannot write %s\n", qPrintable(path));
        ok_ = false;
        return false;
    }
    written_ << path;
    std::printf("%s\n", qPrintable(path));
    return true;
}

void ScreenshotTour::discoverAndDownload() {
    DiscoverPage* discover = window_.discoverPage();
    window_.showPage(Id::Discover);
    discover->setQuery(options_.hubSearch);
    discover->search();
    settleUntil(5000, [&] { return discover->results()->rowCount() > 0; });
    if (discover->results()->rowCount() > 0) {
        discover->findChild<QTableView*>("hubResults")->selectRow(0);
        settleUntil(5000, [&] { return !discover->variants()->estimates().isEmpty(); });
        discover->variants()->selectGroup(0);
    }
    settle(300);
    save(&window_, QStringLiteral("discover"));
    if (discover->variants()->topLevelItemCount() > 0) {
        discover->download(0);
        window_.showPage(Id::Downloads);
        const auto tasks = services_.downloads().tasks();
        if (!tasks.isEmpty()) window_.downloadsPage()->selectTask(tasks.last().id);
        // A moment into the transfer, so the picture shows a progress bar.
        settleUntil(4000, [&] {
            for (const auto& t : services_.downloads().tasks())
                if (t.bytesDone > 0) return true;
            return false;
        });
        settle(600);
    } else {
        window_.showPage(Id::Downloads);
        settle(300);
    }
    save(&window_, QStringLiteral("downloads"));
}

bool ScreenshotTour::loadAndChat() {
    auto added = services_.library().addFile(options_.modelPath);
    if (!added) {
        std::fprintf(stderr, "error: cannot add %s: %s\n", qPrintable(options_.modelPath), added.error().message.c_str());
        ok_ = false;
        return false;
    }
    window_.showPage(Id::Library);
    window_.libraryPage()->selectModel(added->id);
    settleUntil(5000, [&] {
        auto r = services_.library().model(added->id);
        return r && !r->sha256.isEmpty();
    });
    save(&window_, QStringLiteral("library"));

    LoadDialog* dialog = window_.createLoadDialog(added->id);
    dialog->setContextLength(1024);
    dialog->setParallelUsers(4);
    dialog->show();
    settle(700);
    save(dialog, QStringLiteral("load-dialog"));
    dialog->startLoad();
    settleUntil(30000, [&] { return !dialog->isLoading(); });
    settle(200);
    if (!services_.engine().isReady()) {
        std::fprintf(stderr, "error: the model did not load\n");
        ok_ = false;
        return false;
    }
    ChatPage* chat = window_.chatPage();
    window_.showPage(Id::Chat);
    const QString id = chat->newConversation();
    for (const char* prompt : {"Once upon a time, there was a little dog.", "What did the dog find?"}) {
        chat->input()->setPlainText(QString::fromUtf8(prompt));
        chat->send();
        settleUntil(30000, [&] { return !chat->runner().isGenerating(id); });
        settle(300);
    }
    save(&window_, QStringLiteral("chat"));
    return true;
}

void ScreenshotTour::shareOnLoopback() {
    ServerPage* page = window_.serverPage();
    window_.showPage(Id::Server);
    page->createKey(QStringLiteral("alice (laptop)"), false);
    page->selectMode(int(app::ServerBindMode::Loopback));
    // One request from "a colleague", so the access log has a line.
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(page->colleagueUrl() + QStringLiteral("/models")));
    request.setRawHeader("Authorization", "Bearer " + page->lastCreatedKey().toUtf8());
    QNetworkReply* reply = nam.get(request);
    settleUntil(5000, [&] { return reply->isFinished(); });
    reply->deleteLater();
    settle(1500);  // the access log is written in batches
    page->refresh();
    settle(200);
    save(&window_, QStringLiteral("server"));
}

bool ScreenshotTour::run() {
    if (!QDir().mkpath(options_.folder)) {
        std::fprintf(stderr, "error: cannot create %s\n", qPrintable(options_.folder));
        return false;
    }
    window_.resize(1280, 820);
    window_.show();
    window_.showPage(Id::Welcome);
    settle(800);
    save(&window_, QStringLiteral("welcome"));
    if (!options_.hubSearch.isEmpty()) discoverAndDownload();
    if (!options_.modelPath.isEmpty() && loadAndChat()) {
        window_.showPage(Id::Dashboard);
        settle(1500);
        save(&window_, QStringLiteral("dashboard"));
        shareOnLoopback();
    } else {
        for (Id id : {Id::Library, Id::Chat, Id::Dashboard, Id::Server}) {
            window_.showPage(id);
            settle(500);
            static const char* names[] = {"welcome", "discover", "downloads", "library", "chat", "dashboard", "server"};
            save(&window_, QString::fromLatin1(names[int(id)]));
        }
    }
    return ok_;
}

}  // namespace hearth::ui
