#pragma once
// Where a download is in its life. Stored by name in the queue database.
//   Queued -> Running -> Completed
//                     -> Paused -> Queued (resume)
//                     -> Failed -> Queued (retry by the user)
//   any but Completed -> Cancelled (the .part is deleted)
#include <QString>

namespace hearth::app {

enum class DownloadState { Queued, Running, Paused, Completed, Failed, Cancelled };

inline QString downloadStateName(DownloadState s) {
    switch (s) {
    case DownloadState::Queued: return "queued";
    case DownloadState::Running: return "running";
    case DownloadState::Paused: return "paused";
    case DownloadState::Completed: return "completed";
    case DownloadState::Failed: return "failed";
    case DownloadState::Cancelled: return "cancelled";
    }
    return "queued";
}

inline DownloadState downloadStateFromName(const QString& name) {
    for (DownloadState s : {DownloadState::Queued, DownloadState::Running, DownloadState::Paused,
                            DownloadState::Completed, DownloadState::Failed, DownloadState::Cancelled})
        if (downloadStateName(s) == name) return s;
    return DownloadState::Queued;
}

}  // namespace hearth::app
