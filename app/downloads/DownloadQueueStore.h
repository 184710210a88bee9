#pragma once
// The download queue on disk (SQLite, schema below), so the queue survives an app restart: a task
// that was running when the app stopped is queued again at the next start and resumes from its
// .part file. Used on the manager's (GUI) thread; writes are small and rare.
//   1: downloads(id, url, destination, expected_size, expected_sha256, repo, repo_path, state,
//      bytes_done, total_bytes, error, sha256, added_at, finished_at) — times in ms since the epoch
#include <QList>
#include <QString>

#include "downloads/DownloadTask.h"
#include "hearth/result.h"

namespace hearth::app {

class DownloadQueueStore {
public:
    DownloadQueueStore() = default;
    ~DownloadQueueStore();
    DownloadQueueStore(const DownloadQueueStore&) = delete;
    DownloadQueueStore& operator=(const DownloadQueueStore&) = delete;

    Status open(const QString& path);
    void close();
    bool isOpen() const { return !connection_.isEmpty(); }

    Result<QList<DownloadTask>> load() const;
    Result<qint64> insert(const DownloadTask& task) const;
    Status save(const DownloadTask& task) const;  // state, progress, error, hash, finish time
    Status remove(qint64 id) const;

private:
    QString connection_;
};

}  // namespace hearth::app
