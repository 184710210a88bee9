#pragma once
// One file of a hub repository (from /api/models/{repo}/tree/main?recursive=true).
// Invariants: path is relative to the repo root, '/'-separated; size is the real file size (the LFS
// object's size for LFS files, not the pointer's); sha256 is the LFS oid (64 lower-case hex) for
// LFS files and empty otherwise (the hub gives only a git blob id for small files).
#include <QString>

namespace hearth::app {

struct HubFile {
    QString path;
    qint64 size = 0;
    QString sha256;
    QString gitOid;
    bool isLfs() const { return !sha256.isEmpty(); }
};

}  // namespace hearth::app
