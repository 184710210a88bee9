#pragma once
// One run of one download on the download worker's thread: resume from the .part file (re-hashed
// first, so the SHA-256 covers every byte), GET with Range, check the 206 (a 200 restarts cleanly
// from zero), stream into the .part while hashing, retry network errors and 5xx with exponential
// backoff (resuming where it stopped), verify size and SHA-256, fsync, then rename atomically.
// Redirects are followed by hand so the access token never leaves the hub's host and https is
// never downgraded. TLS errors are never ignored.
//
// Invariants: after start(), exactly one of completed / failed / paused / cancelled is emitted,
// then nothing more; offset_ is the number of bytes in the .part file and in hash_; a failed run
// keeps its .part (resumable) unless its bytes are known bad (hash mismatch), a cancelled one
// deletes it.
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QUrl>
#include <atomic>
#include <memory>

#include "downloads/DownloadTask.h"
#include "downloads/RetryPolicy.h"
#include "hearth/result.h"

class QNetworkAccessManager;
class QNetworkReply;

namespace hearth::app {

class DownloadTransfer : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRedirects = 10;

    // `tokenAuthority` ("host:port") is the only place the Bearer `token` is sent to.
    DownloadTransfer(DownloadTask task, quint64 run, RetryPolicy policy, QString tokenAuthority, QString token,
                     QNetworkAccessManager* network, QObject* parent = nullptr);
    ~DownloadTransfer() override;

    void start();
    void pause();   // stops now, keeps the .part
    void cancel();  // stops now, deletes the .part
    qint64 id() const { return task_.id; }

signals:
    void progress(qint64 id, quint64 run, qint64 done, qint64 total, double bytesPerSecond, int attempt);
    void retrying(qint64 id, quint64 run, int attempt, int delayMs, const QString& why);
    void completed(qint64 id, quint64 run, const QString& sha256);
    void failed(qint64 id, quint64 run, const QString& error);
    void paused(qint64 id, quint64 run, qint64 done);
    void cancelled(qint64 id, quint64 run);

private:
    void onRehashed(const Status& status);
    void sendRequest(const QUrl& url, int redirects);
    bool checkHeaders();
    void onReadyRead();
    void onFinished(int redirects);
    void retryOrFail(const QString& why, bool fromZero);
    Status restartFromZero();
    void verifyAndComplete();
    void fail(const QString& error);
    void finishRun();
    void dropReply();
    void reportProgress(bool force);
    bool writeChunk(const QByteArray& data);

    DownloadTask task_;
    quint64 run_;
    RetryPolicy policy_;
    QString tokenAuthority_;
    QString token_;
    QNetworkAccessManager* network_;
    QPointer<QNetworkReply> reply_;
    QFile part_;
    std::shared_ptr<QCryptographicHash> hash_;
    std::shared_ptr<std::atomic<bool>> rehashCancel_;
    QFutureWatcher<Status>* rehash_ = nullptr;
    qint64 offset_ = 0;
    qint64 total_ = -1;
    qint64 requestOffset_ = 0;  // the Range start of the request in flight
    int attempt_ = 1;
    bool headersChecked_ = false;
    bool done_ = false;
    QString abortReason_;  // why we aborted the reply ourselves (then it is not a network error)
    bool abortFromZero_ = false;
    QElapsedTimer sinceProgress_;
    QElapsedTimer clock_;
    QList<QPair<qint64, qint64>> samples_;  // (ms, offset) for the speed over the last seconds
};

}  // namespace hearth::app
