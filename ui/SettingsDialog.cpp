#include "SettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "LanguageManager.h"
#include "settings/AppSettings.h"
#include "settings/TokenStore.h"
#include "WidgetHelpers.h"

namespace hearth::ui {
namespace {
QWidget* withBrowse(QLineEdit* edit, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto* browse = new QToolButton(row);
    browse->setText(QStringLiteral("…"));
    QObject::connect(browse, &QToolButton::clicked, edit, [edit] {
        const QString dir = QFileDialog::getExistingDirectory(edit->window(), QString(), edit->text());
        if (!dir.isEmpty()) edit->setText(dir);
    });
    h->addWidget(browse);
    return row;
}
}  // namespace

SettingsDialog::SettingsDialog(app::AppSettings& settings, app::TokenStore& tokens, LanguageManager& languages,
                               QWidget* parent)
    : QDialog(parent), settings_(settings), tokens_(tokens), languages_(languages) {
    setObjectName("settingsDialog");
    hubUrl_ = new QLineEdit(settings_.hubBaseUrl().toString(), this);
    hubUrl_->setObjectName("hubUrlEdit");
    token_ = new QLineEdit(tokens_.token(), this);
    token_->setObjectName("hubTokenEdit");
    token_->setEchoMode(QLineEdit::Password);
    tokenNote_ = new QLabel(this);
    tokenNote_->setObjectName("tokenNote");
    tokenNote_->setWordWrap(true);
    models_ = new QLineEdit(settings_.modelsFolder(), this);
    models_->setObjectName("modelsFolderEdit");
    downloads_ = new QLineEdit(settings_.downloadFolder(), this);
    downloads_->setObjectName("downloadFolderEdit");
    port_ = new QSpinBox(this);
    port_->setObjectName("serverPortSpin");
    port_->setRange(1, 65535);
    port_->setValue(settings_.serverPort());
    language_ = new QComboBox(this);
    language_->setObjectName("languageCombo");
    for (const QString& code : LanguageManager::available()) language_->addItem(LanguageManager::nativeName(code), code);
    language_->setCurrentIndex(language_->findData(languages_.language()));
    error_ = new QLabel(this);
    error_->setObjectName("settingsError");
    error_->setStyleSheet("color: #b3261e");
    error_->setWordWrap(true);
    error_->hide();

    form_ = new QFormLayout;
    form_->addRow(QStringLiteral("hub"), hubUrl_);
    form_->addRow(QStringLiteral("token"), token_);
    form_->addRow(QString(), tokenNote_);
    form_->addRow(QStringLiteral("models"), withBrowse(models_, this));
    form_->addRow(QStringLiteral("downloads"), withBrowse(downloads_, this));
    form_->addRow(QStringLiteral("port"), port_);
    form_->addRow(QStringLiteral("language"), language_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (apply()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    resize(640, 0);
    retranslate();
}

QString SettingsDialog::error() const { return error_->isVisible() ? error_->text() : QString(); }

bool SettingsDialog::apply() {
    auto fail = [this](const Status& s) {
        error_->setText(QString::fromStdString(s.error().message));
        error_->show();
        return false;
    };
    if (Status s = settings_.setHubBaseUrl(QUrl(hubUrl_->text().trimmed())); !s) return fail(s);
    if (Status s = settings_.setModelsFolder(models_->text().trimmed()); !s) return fail(s);
    if (Status s = settings_.setDownloadFolder(downloads_->text().trimmed()); !s) return fail(s);
    if (Status s = settings_.setServerPort(port_->value()); !s) return fail(s);
    if (token_->text().trimmed() != tokens_.token())
        if (Status s = tokens_.setToken(token_->text()); !s) return fail(s);
    const QString code = language_->currentData().toString();
    if (code != languages_.language()) {
        if (Status s = languages_.setLanguage(code); !s) return fail(s);
        (void)settings_.setLanguage(code);
    }
    error_->hide();
    retranslate();
    return true;
}

void SettingsDialog::retranslate() {
    setWindowTitle(tr("Settings"));
    setFormLabel(form_, hubUrl_, tr("Hub address"));
    setFormLabel(form_, token_, tr("Hub access token"));
    setFormLabel(form_, models_->parentWidget(), tr("Models folder"));
    setFormLabel(form_, downloads_->parentWidget(), tr("Download folder"));
    setFormLabel(form_, port_, tr("API server port"));
    setFormLabel(form_, language_, tr("Language"));
    hubUrl_->setToolTip(tr("https://huggingface.co, a mirror, or a server on your network"));
    token_->setPlaceholderText(tr("Only needed for gated or private repositories"));
    // Where the token lives; plain text in the settings file is worth a visible warning.
    const bool keychain = tokens_.storage() == app::TokenStore::Storage::Keychain ||
                          (tokens_.storage() == app::TokenStore::Storage::None && app::TokenStore::keychainCompiledIn());
    if (tokens_.storage() == app::TokenStore::Storage::Keychain)
        tokenNote_->setText(tr("The token is kept in the system keychain."));
    else if (keychain)
        tokenNote_->setText(tr("A token you enter is kept in the system keychain when one is available."));
    else
        tokenNote_->setText(tr("Warning: no system keychain is available, so the token is kept in plain text in "
                               "the settings file."));
    tokenNote_->setStyleSheet(keychain ? QString() : QStringLiteral("color: #b3261e"));
}

void SettingsDialog::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QDialog::changeEvent(event);
}

}  // namespace hearth::ui
