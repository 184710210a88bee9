#pragma once
// Settings: the hub's base URL (a mirror, or a test server) and the access token for gated
// repositories (in the system keychain when there is one; otherwise in the settings file, which
// the dialog warns about), the models and downloads folders, the API server's port and the
// language. Values are checked by AppSettings; a bad one keeps the dialog open with the reason.

#include <QDialog>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace hearth::app {
class AppSettings;
class TokenStore;
}  // namespace hearth::app

namespace hearth::ui {

class LanguageManager;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(app::AppSettings& settings, app::TokenStore& tokens, LanguageManager& languages,
                   QWidget* parent = nullptr);

    // Applies every field; false (and the reason shown) when one is rejected.
    bool apply();
    QString error() const;

    QLineEdit* hubUrlEdit() const { return hubUrl_; }
    QLineEdit* tokenEdit() const { return token_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    app::AppSettings& settings_;
    app::TokenStore& tokens_;
    LanguageManager& languages_;
    QFormLayout* form_ = nullptr;
    QLineEdit* hubUrl_ = nullptr;
    QLineEdit* token_ = nullptr;
    QLabel* tokenNote_ = nullptr;
    QLineEdit* models_ = nullptr;
    QLineEdit* downloads_ = nullptr;
    QSpinBox* port_ = nullptr;
    QComboBox* language_ = nullptr;
    QLabel* error_ = nullptr;
};

}  // namespace hearth::ui
