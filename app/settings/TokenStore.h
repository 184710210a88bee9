#pragma once
// The optional Hugging Face access token (for gated repos). Kept in the system keychain through
// QtKeychain when Hearth was built with it and a keychain answers; otherwise in the settings file,
// in which case warning() says so and the UI shows it.
//
// Invariants: token() is what was last loaded or stored (empty = no token); storage() names where
// it lives now; a token is never in both places (moving it to the keychain removes the plain copy).
// Keychain calls wait at most keychainTimeoutMs (a missing D-Bus service must not hang the app).

#include <QObject>
#include <QString>

#include "hearth/result.h"

namespace hearth::app {

class AppSettings;

class TokenStore : public QObject {
    Q_OBJECT
public:
    enum class Storage { None, Keychain, SettingsFile };
    enum class Mode { Auto, SettingsOnly };  // SettingsOnly: tests, or a user who opts out

    static constexpr const char* kSettingsKey = "hub/token";
    static constexpr const char* kKeychainService = "Hearth";
    static constexpr const char* kKeychainKey = "huggingface-token";

    explicit TokenStore(AppSettings& settings, Mode mode = Mode::Auto, QObject* parent = nullptr);

    static bool keychainCompiledIn();

    // Reads the token (keychain first, then the settings file). Blocks up to the timeout.
    void load();
    QString token() const { return token_; }
    Storage storage() const { return storage_; }
    // Non-empty when the token sits in plain text in the settings file.
    QString warning() const;

    // Stores `token` (trimmed; empty clears it).
    Status setToken(const QString& token);
    Status clear() { return setToken(QString()); }

    void setKeychainTimeoutMs(int ms) { keychainTimeoutMs_ = ms; }

signals:
    void tokenChanged();

private:
    bool keychainRead(QString* out, QString* error);
    bool keychainWrite(const QString& token, QString* error);
    bool keychainDelete(QString* error);

    AppSettings& settings_;
    Mode mode_;
    QString token_;
    Storage storage_ = Storage::None;
    QString keychainError_;
    int keychainTimeoutMs_ = 4000;
};

}  // namespace hearth::app
