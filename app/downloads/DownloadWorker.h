#pragma once
// The download manager's network side: owns the QNetworkAccessManager and the running
// DownloadTransfers, all on the manager's worker thread. Reached only through queued signals
// (every connect names Qt::QueuedConnection); reports back the same way. Each start() carries a
// run number that comes back with every report, so the manager can drop reports of runs it has
// already paused or cancelled.
#include <QHash>
#include <QObject>

#include "downloads/DownloadTask.h"
#include "downloads/RetryPolicy.h"

class QNetworkAccessManager;

namespace hearth::app {

class DownloadTransfer;

class DownloadWorker : public QObject {
    Q_OBJECT
public:
    DownloadWorker();
    ~DownloadWorker() override;

public slots:
    void start(const hearth::app::DownloadTask& task, quint64 run, const hearth::app::RetryPolicy& policy,
               const QString& tokenAuthority, const QString& token);
    void pause(qint64 id);
    void cancel(qint64 id);

signals:
    void progress(qint64 id, quint64 run, qint64 done, qint64 total, double bytesPerSecond, int attempt);
    void retrying(qint64 id, quint64 run, int attempt, int delayMs, const QString& why);
    void completed(qint64 id, quint64 run, const QString& sha256);
    void failed(qint64 id, quint64 run, const QString& error);
    void paused(qint64 id, quint64 run, qint64 done);
    void cancelled(qint64 id, quint64 run);

private:
    void forget(qint64 id, DownloadTransfer* transfer);
    QNetworkAccessManager* network_ = nullptr;  // created on the worker thread, on first use
    QHash<qint64, DownloadTransfer*> transfers_;
};

}  // namespace hearth::app
