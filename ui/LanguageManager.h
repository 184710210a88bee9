#pragma once
// Switches the UI language at run time: installs Hearth's translator (":/i18n/hearth_<code>.qm",
// compiled from translations/; English has one too, for the plural forms of "%n token(s)") and
// Qt's own (standard dialog buttons), and lets QEvent::LanguageChange reach every widget, whose
// retranslate() re-sets its strings.
//
// Invariant: language() is the code whose translators are installed now (none before the first
// setLanguage(); DesktopServices::open() sets the saved language).

#include <QObject>
#include <QStringList>
#include <QTranslator>
#include <memory>

#include "hearth/result.h"

namespace hearth::ui {

class LanguageManager : public QObject {
    Q_OBJECT
public:
    explicit LanguageManager(QObject* parent = nullptr);
    ~LanguageManager() override;

    static QStringList available();            // {"en", "ko"}
    static QString nativeName(const QString& code);  // "English", "한국어"

    // Installs the translators for `code`; InvalidArgument for an unknown code, IoError when the
    // compiled translation is missing (the previous language stays).
    Status setLanguage(const QString& code);
    QString language() const { return language_; }

signals:
    void languageChanged(const QString& code);

private:
    void removeTranslators();
    std::unique_ptr<QTranslator> hearth_;
    std::unique_ptr<QTranslator> qt_;
    QString language_ = QStringLiteral("en");
};

}  // namespace hearth::ui
