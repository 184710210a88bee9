#pragma once
// One entry of the download queue: the request, its state and its progress.
// Invariants: id > 0 and unique in the queue; bytesDone <= totalBytes when totalBytes >= 0;
// error is non-empty exactly in state Failed; a Completed task's file is at request.destination
// and matched expectedSha256 (when one was given).
#include <QDateTime>
#include <QMetaType>
#include <QString>

#include "downloads/DownloadRequest.h"
#include "downloads/DownloadState.h"

namespace hearth::app {

struct DownloadTask {
    qint64 id = 0;
    DownloadRequest request;
    DownloadState state = DownloadState::Queued;
    qint64 bytesDone = 0;
    qint64 totalBytes = -1;
    double bytesPerSecond = 0;  // over the last few seconds; 0 when not running
    qint64 etaSeconds = -1;     // -1 when unknown
    int attempts = 0;           // tries of the current run (retries after network errors)
    QString error;
    QString sha256;             // the verified hash once Completed
    QDateTime addedAt;
    QDateTime finishedAt;

    QString partPath() const { return request.destination + ".part"; }
};

}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::app::DownloadTask)
