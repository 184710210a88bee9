#include "LanguageManager.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>

namespace hearth::ui {

LanguageManager::LanguageManager(QObject* parent) : QObject(parent) {}

LanguageManager::~LanguageManager() { removeTranslators(); }

QStringList LanguageManager::available() { return {QStringLiteral("en"), QStringLiteral("ko")}; }

QString LanguageManager::nativeName(const QString& code) {
    if (code == QLatin1String("ko")) return QStringLiteral("한국어");
    return QStringLiteral("English");
}

void LanguageManager::removeTranslators() {
    if (hearth_) QCoreApplication::removeTranslator(hearth_.get());
    if (qt_) QCoreApplication::removeTranslator(qt_.get());
    hearth_.reset();
    qt_.reset();
}

Status LanguageManager::setLanguage(const QString& code) {
    if (!available().contains(code))
        return makeError(ErrorCode::InvalidArgument, ("unknown language: " + code).toStdString());
    if (code == language_ && hearth_) return Status::success();
    std::unique_ptr<QTranslator> hearth, qt;
    hearth = std::make_unique<QTranslator>();
    if (!hearth->load(QStringLiteral(":/i18n/hearth_%1.qm").arg(code)))
        return makeError(ErrorCode::IoError, ("the compiled translation for " + code + " is missing").toStdString());
    if (code != QLatin1String("en")) {
        qt = std::make_unique<QTranslator>();
        // Qt's own strings (dialog buttons); optional: not every system ships them.
        if (!qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            qt.reset();
    }
    removeTranslators();
    hearth_ = std::move(hearth);
    qt_ = std::move(qt);
    // Each installTranslator/removeTranslator posts LanguageChange to every widget.
    if (qt_) QCoreApplication::installTranslator(qt_.get());
    if (hearth_) QCoreApplication::installTranslator(hearth_.get());
    QLocale::setDefault(QLocale(code == QLatin1String("ko") ? QLocale::Korean : QLocale::English));
    language_ = code;
    emit languageChanged(code);
    return Status::success();
}

}  // namespace hearth::ui
