// hearth: the desktop app. A thin main over hearth_ui: options, the services, the main window.
//   hearth [--settings FILE] [--data-dir DIR] [--version]
//   hearth --screenshots DIR [--tour-model GGUF] [--tour-search TEXT]   (tests/ui/screenshots.sh)
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
    QCommandLineOption tourModelOption("tour-model",
                                       QApplication::translate("main", "With --screenshots: load and chat with this model."),
                                       "gguf");
    QCommandLineOption tourSearchOption("tour-search",
                                        QApplication::translate("main", "With --screenshots: search the hub for this."),
                                        "text");
    QCommandLineOption iconOption("write-icon", QApplication::translate("main", "Write the 256 px icon as PNG and quit."),
                                  "png");
    parser.addOptions({settingsOption, dataOption, shotsOption, tourModelOption, tourSearchOption, iconOption});
    parser.process(app);
    if (parser.isSet(iconOption))  // the build makes the package's PNG icon from the one drawing
        return hearth::ui::AppIcon::pixmap(256).save(parser.value(iconOption)) ? 0 : 1;

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
        hearth::ui::TourOptions tour;
        tour.folder = parser.value(shotsOption);
        tour.modelPath = parser.value(tourModelOption);
        tour.hubSearch = parser.value(tourSearchOption);
        return hearth::ui::ScreenshotTour(window, services, tour).run() ? 0 : 1;
    }
    window.show();
    return app.exec();
}
