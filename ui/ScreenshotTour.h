#pragma once
// `hearth --screenshots DIR [--tour-model GGUF] [--tour-search TEXT]`: walks through the app as a
// new user would — the first-run screen, a hub search and a download (when the hub setting points
// at a server), adding and loading a model, a chat reply, the live dashboard, the API server with
// a key — and saves each page as DIR/<name>.png, then quits. tests/ui/screenshots.sh runs it under
// Xvfb with a throw-away data folder and a loopback hub; docs/screenshots.md describes the pictures.

#include <QString>
#include <QStringList>

class QWidget;

namespace hearth::ui {

class DesktopServices;
class MainWindow;

struct TourOptions {
    QString folder;
    QString modelPath;   // added, loaded and chatted with; empty: those steps show empty pages
    QString hubSearch;   // searched on Discover, first result and variant downloaded; empty: skipped
};

class ScreenshotTour {
public:
    ScreenshotTour(MainWindow& window, DesktopServices& services, TourOptions options);
    // Saves every picture; false (with a message on stderr) when one could not be written.
    bool run();
    QStringList written() const { return written_; }

private:
    bool save(QWidget* widget, const QString& name);
    // Processes events for `ms`, or until `done` holds.
    template <class Pred>
    bool settleUntil(int ms, Pred done);
    void settle(int ms);
    void discoverAndDownload();
    bool loadAndChat();
    void shareOnLoopback();

    MainWindow& window_;
    DesktopServices& services_;
    TourOptions options_;
    QStringList written_;
    bool ok_ = true;
};

}  // namespace hearth::ui
