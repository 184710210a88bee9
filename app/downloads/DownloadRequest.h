#pragma once
// What to download and how to check it. Built by the Discover page from a HubFile and
// HubClient::fileUrl(); any http(s) URL works.
// Invariants: destination is an absolute file path (its .part sibling is used while downloading);
// expectedSha256 is empty (no check) or 64 hex digits; expectedSize is -1 when unknown.
#include <QString>
#include <QUrl>

namespace hearth::app {

struct DownloadRequest {
    QUrl url;
    QString destination;
    qint64 expectedSize = -1;
    QString expectedSha256;  // the hub's LFS oid
    QString repo;            // "owner/name", recorded in the model library
    QString repoPath;        // the file's path in the repo
};

}  // namespace hearth::app
