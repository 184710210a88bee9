#include "ScreenshotTour.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QPixmap>
#include <QWidget>
#include <cstdio>

#include "DesktopServices.h"
#include "LoadDialog.h"
#include "MainWindow.h"
#include "library/ModelLibrary.h"

namespace hearth::ui {

ScreenshotTour::ScreenshotTour(MainWindow& window, DesktopServices& services, QString folder)
    : window_(window), services_(services), folder_(std::move(folder)) {}

void ScreenshotTour::settle(int ms) {
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

bool ScreenshotTour::save(QWidget* widget, const QString& name) {
    const QString path = QDir(folder_).filePath(name + QStringLiteral(".png"));
    if (!widget->grab().save(path)) {
        std::fprintf(stderr, "error: cannot write %s\n", qPrintable(path));
        return false;
    }
    written_ << path;
    std::printf("%s\n", qPrintable(path));
    return true;
}

bool ScreenshotTour::run() {
    if (!QDir().mkpath(folder_)) {
        std::fprintf(stderr, "error: cannot create %s\n", qPrintable(folder_));
        return false;
    }
    window_.resize(1280, 800);
    window_.show();
    settle(800);
    bool ok = true;
    static const QHash<int, QString> names = {
        {int(MainWindow::PageId::Welcome), "welcome"},   {int(MainWindow::PageId::Library), "library"},
        {int(MainWindow::PageId::Chat), "chat"},         {int(MainWindow::PageId::Dashboard), "dashboard"},
    };
    for (MainWindow::PageId id : window_.pageIds()) {
        window_.showPage(id);
        settle(700);
        ok = save(&window_, names.value(int(id), QStringLiteral("page%1").arg(int(id)))) && ok;
    }
    const auto models = services_.library().models();
    if (!models.isEmpty()) {
        LoadDialog* dialog = window_.createLoadDialog(models.first().id);
        dialog->show();
        settle(700);
        ok = save(dialog, QStringLiteral("load-dialog")) && ok;
        dialog->deleteLater();
    }
    return ok;
}

}  // namespace hearth::ui
