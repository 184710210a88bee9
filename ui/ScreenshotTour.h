#pragma once
// `hearth --screenshots DIR`: shows every page of the main window (and the load dialog) in turn
// and saves each as DIR/<page>.png, then quits. tests/ui/screenshots.sh runs it under Xvfb with
// a throw-away data folder holding the test models; docs/screenshots.md describes the pictures.

#include <QString>
#include <QStringList>

class QWidget;

namespace hearth::ui {

class DesktopServices;
class MainWindow;

class ScreenshotTour {
public:
    ScreenshotTour(MainWindow& window, DesktopServices& services, QString folder);
    // Saves every picture; false (with a message on stderr) when one could not be written.
    bool run();
    QStringList written() const { return written_; }

private:
    bool save(QWidget* widget, const QString& name);
    void settle(int ms);

    MainWindow& window_;
    DesktopServices& services_;
    QString folder_;
    QStringList written_;
};

}  // namespace hearth::ui
