#include "settings/TokenStore.h"

#include <QEventLoop>
#include <QTimer>

#include "settings/AppSettings.h"

#ifdef HEARTH_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace hearth::app {

TokenStore::TokenStore(AppSettings& settings, Mode mode, QObject* parent)
    : QObject(parent), settings_(settings), mode_(mode) {}

bool TokenStore::keychainCompiledIn() {
#ifdef HEARTH_HAVE_QTKEYCHAIN
    return true;
#else
    return false;
#endif
}

#ifdef HEARTH_HAVE_QTKEYCHAIN
namespace {
// Runs a QtKeychain job to completion or until the timeout. The job deletes itself afterwards even
// when we stop waiting for it (a keychain that answers late must not touch freed memory).
bool runJob(QKeychain::Job* job, int timeoutMs, QString* error) {
    job->setAutoDelete(false);
    QEventLoop loop;
    bool finished = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    job->start();
    if (!finished) loop.exec();
    if (!finished) {
        QObject::connect(job, &QKeychain::Job::finished, job, &QObject::deleteLater);
        if (error) *error = "the system keychain did not answer";
        return false;
    }
    const bool ok = job->error() == QKeychain::NoError;
    if (!ok && error) *error = job->errorString();
    job->deleteLater();
    return ok;
}
}  // namespace
#endif

bool TokenStore::keychainRead(QString* out, QString* error) {
#ifdef HEARTH_HAVE_QTKEYCHAIN
    auto* job = new QKeychain::ReadPasswordJob(kKeychainService);
    job->setKey(kKeychainKey);
    QEventLoop loop;
    bool finished = false;
    QString value;
    QKeychain::Error code = QKeychain::NoError;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
        finished = true;
        value = job->textData();
        code = job->error();
        loop.quit();
    });
    job->setAutoDelete(true);
    QTimer::singleShot(keychainTimeoutMs_, &loop, &QEventLoop::quit);
    job->start();
    if (!finished) loop.exec();
    if (!finished) {
        *error = "the system keychain did not answer";
        return false;
    }
    if (code == QKeychain::EntryNotFound) {
        out->clear();
        return true;
    }
    if (code != QKeychain::NoError) {
        *error = QString("keychain error %1").arg(int(code));
        return false;
    }
    *out = value;
    return true;
#else
    *error = "Hearth was built without QtKeychain";
    return false;
#endif
}

bool TokenStore::keychainWrite(const QString& token, QString* error) {
#ifdef HEARTH_HAVE_QTKEYCHAIN
    auto* job = new QKeychain::WritePasswordJob(kKeychainService);
    job->setKey(kKeychainKey);
    job->setTextData(token);
    return runJob(job, keychainTimeoutMs_, error);
#else
    *error = "Hearth was built without QtKeychain";
    return false;
#endif
}

bool TokenStore::keychainDelete(QString* error) {
#ifdef HEARTH_HAVE_QTKEYCHAIN
    auto* job = new QKeychain::DeletePasswordJob(kKeychainService);
    job->setKey(kKeychainKey);
    return runJob(job, keychainTimeoutMs_, error);
#else
    *error = "Hearth was built without QtKeychain";
    return false;
#endif
}

void TokenStore::load() {
    const QString plain = settings_.store().value(kSettingsKey).toString();
    if (mode_ == Mode::Auto && keychainCompiledIn()) {
        QString fromKeychain;
        if (keychainRead(&fromKeychain, &keychainError_)) {
            keychainError_.clear();
            if (!fromKeychain.isEmpty()) {
                token_ = fromKeychain;
                storage_ = Storage::Keychain;
                emit tokenChanged();
                return;
            }
        }
    } else if (mode_ == Mode::SettingsOnly) {
        keychainError_ = "keychain not used (settings-only mode)";
    } else {
        keychainError_ = "Hearth was built without QtKeychain";
    }
    token_ = plain;
    storage_ = plain.isEmpty() ? Storage::None : Storage::SettingsFile;
    emit tokenChanged();
}

QString TokenStore::warning() const {
    if (storage_ != Storage::SettingsFile) return {};
    QString why = keychainError_.isEmpty() ? QStringLiteral("no system keychain") : keychainError_;
    return tr("The access token is stored unencrypted in %1 (%2).").arg(settings_.store().fileName(), why);
}

Status TokenStore::setToken(const QString& tokenIn) {
    const QString token = tokenIn.trimmed();
    if (token.contains('\n') || token.contains('\r') || token.contains(' '))
        return makeError(ErrorCode::InvalidArgument, "an access token has no spaces or line breaks");
    bool inKeychain = false;
    if (mode_ == Mode::Auto && keychainCompiledIn()) {
        QString error;
        if (token.isEmpty()) {
            keychainDelete(&error);  // nothing stored there is fine too
            keychainError_.clear();
        } else if (keychainWrite(token, &error)) {
            inKeychain = true;
            keychainError_.clear();
        } else {
            keychainError_ = error;
        }
    }
    if (inKeychain || token.isEmpty())
        settings_.store().remove(kSettingsKey);
    else
        settings_.store().setValue(kSettingsKey, token);
    settings_.store().sync();
    if (settings_.store().status() != QSettings::NoError)
        return makeError(ErrorCode::IoError, ("cannot write " + settings_.store().fileName()).toStdString());
    token_ = token;
    storage_ = token.isEmpty() ? Storage::None : inKeychain ? Storage::Keychain : Storage::SettingsFile;
    emit tokenChanged();
    return Status::success();
}

}  // namespace hearth::app
