// hearth: the desktop app. A thin main over hearth_ui: options, the services, the main window.
//   hearth [--settings FILE] [--data-dir DIR] [--screenshots DIR] [--version]
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <cstdio>
#include <cstring>

#include "AppIcon.h"
#include "AppVersion.h"
#include "DesktopServices.h"
#include "MainWindow.h"
#include "ScreenshotTour.h"
#include "settings/AppSettings.h"

int main(int argc, char** argv) {
    // --version needs no display: answer before Qt looks for one (package tests run it headless).
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--version") || !std::strcmp(argv[i], "-v")) {
            std::printf("hearth %s\n", hearth::app::versionString());
            return 0;
        }
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Hearth");
    QApplication::setApplicationName("hearth");
    QApplication::setApplicationDisplayName("Hearth");
    QApplication::setApplicationVersion(QString::fromLatin1(hearth::app::versionString()));
    QApplication::setWindowIcon(hearth::ui::AppIcon::icon());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Hearth: language models for the office."));
    parser.addHelpOption();
    QCommandLineOption settingsOption("settings", QApplication::translate("main", "Use this settings file (INI)."),
                                      "file");
    QCommandLineOption dataOption("data-dir", QApplication::translate("main", "Keep databases and models here."),
                                  "folder");
    QCommandLineOption shotsOption("screenshots",
                                   QApplication::translate("main", "Save a screenshot of every page here and quit."),
                                   "folder");
    parser.addOptions({settingsOption, dataOption, shotsOption});
    parser.process(app);

    hearth::ui::DesktopServices::Options options;
    options.settingsFile = parser.value(settingsOption);
    hearth::ui::DesktopServices services(options);
    if (parser.isSet(dataOption)) {
        const QString folder = QDir(parser.value(dataOption)).absolutePath();
        if (hearth::Status s = services.settings().setDataFolder(folder); !s) {
            std::fprintf(stderr, "error: %s\n", s.error().message.c_str());
            return 2;
        }
    }
    services.open();

    hearth::ui::MainWindow window(services);
    if (parser.isSet(shotsOption)) {
        hearth::ui::ScreenshotTour tour(window, services, parser.value(shotsOption));
        return tour.run() ? 0 : 1;
    }
    window.show();
    return app.exec();
}
