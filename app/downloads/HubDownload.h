#pragma once
// Turns a file of a hub listing into a DownloadRequest: the URL from HubClient::fileUrl, the
// size and LFS SHA-256 from the listing, and a destination of <folder>/<owner>/<repo>/<file name>
// (the repo's sub-folders are dropped; split parts keep their names side by side, as the engine
// expects to find them).
#include <QDir>
#include <QString>
#include <QUrl>

#include "downloads/DownloadRequest.h"
#include "hub/HubFile.h"

namespace hearth::app {

inline DownloadRequest hubDownloadRequest(const QUrl& fileUrl, const QString& repo, const HubFile& file,
                                          const QString& folder) {
    DownloadRequest r;
    r.url = fileUrl;
    r.destination = QDir::cleanPath(folder + "/" + repo + "/" + file.path.section('/', -1));
    r.expectedSize = file.size;
    r.expectedSha256 = file.sha256;
    r.repo = repo;
    r.repoPath = file.path;
    return r;
}

}  // namespace hearth::app
