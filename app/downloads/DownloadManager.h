#pragma once
// The download queue: progress, speed, ETA, pause/resume/cancel, at most maxConcurrent running at
// once, persisted in SQLite so it survives a restart mid-download (running tasks resume from their
// .part). Network I/O happens on an owned worker thread (DownloadWorker, moved to a QThread; every
// cross-thread connect is Qt::QueuedConnection). Finished files are added to the model library
// (with the verified SHA-256, so it does not hash them again).
//
// Threads: a DownloadManager lives on the GUI thread; its signals are emitted there.
// Invariants: tasks() mirrors the queue database; a task is Running only while the worker has a
// transfer for its current run; reports from older runs are ignored.
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <memory>
#include <optional>

#include "core/WorkerThread.h"
#include "downloads/DownloadQueueStore.h"
#include "downloads/DownloadRequest.h"
#include "downloads/DownloadTask.h"
#include "downloads/RetryPolicy.h"
#include "hearth/result.h"

namespace hearth::app {

class DownloadWorker;
class ModelLibrary;

class DownloadManager : public QObject {
    Q_OBJECT
public:
    explicit DownloadManager(QObject* parent = nullptr);
    ~DownloadManager() override;  // stops the worker; running tasks stay "running" on disk and resume next time

    // Opens the queue database and starts the tasks that were queued or running.
    Status open(const QString& queueDatabasePath);
    void setLibrary(ModelLibrary* library) { library_ = library; }
    void setRetryPolicy(const RetryPolicy& policy) { policy_ = policy; }
    void setMaxConcurrent(int n);
    // The Bearer token for gated repos, sent only to `hubUrl`'s host and port.
    void setHubToken(const QUrl& hubUrl, const QString& token);

    Result<qint64> enqueue(const DownloadRequest& request);
    Status pause(qint64 id);
    Status resume(qint64 id);   // a paused or failed task
    Status cancel(qint64 id);   // deletes the .part
    Status remove(qint64 id);   // forgets a finished, failed or cancelled task

    QList<DownloadTask> tasks() const { return tasks_.values(); }
    std::optional<DownloadTask> task(qint64 id) const;
    int runningCount() const;

signals:
    void taskAdded(qint64 id);
    void taskChanged(qint64 id);
    void taskRemoved(qint64 id);
    void taskFinished(qint64 id, const QString& path);
    void taskFailed(qint64 id, const QString& error);
    void libraryAddFailed(qint64 id, const QString& error);
    // to the worker (queued)
    void startRequested(const hearth::app::DownloadTask& task, quint64 run, const hearth::app::RetryPolicy& policy,
                        const QString& tokenAuthority, const QString& token);
    void pauseRequested(qint64 id);
    void cancelRequested(qint64 id);

private:
    void schedule();
    void save(DownloadTask& task, bool force);
    DownloadTask* current(qint64 id, quint64 run);
    void onProgress(qint64 id, quint64 run, qint64 done, qint64 total, double bytesPerSecond, int attempt);
    void onRetrying(qint64 id, quint64 run, int attempt, int delayMs, const QString& why);
    void onCompleted(qint64 id, quint64 run, const QString& sha256);
    void onFailed(qint64 id, quint64 run, const QString& error);
    void onPaused(qint64 id, quint64 run, qint64 done);

    DownloadQueueStore store_;
    QMap<qint64, DownloadTask> tasks_;
    QMap<qint64, quint64> runs_;          // the current run of each running task
    QMap<qint64, qint64> lastSavedMs_;
    quint64 nextRun_ = 1;
    RetryPolicy policy_;
    int maxConcurrent_ = 2;
    QString tokenAuthority_;
    QString token_;
    QPointer<ModelLibrary> library_;
    std::unique_ptr<WorkerThread> thread_;
    DownloadWorker* worker_ = nullptr;
};

}  // namespace hearth::app
