#pragma once
// One local model file as the library knows it (a row of the `models` table plus what is only
// known at run time).
//
// Invariants: id > 0 for a stored record; path is absolute and unique in the library; sha256 is
// empty (not hashed yet, or the file changed since) or 64 lower-case hex digits of the whole file
// as it was when fileSize/fileMtime were taken; lastUsedAt is invalid when never used.

#include <QDateTime>
#include <QString>
#include <QtGlobal>

namespace hearth::app {

struct ModelRecord {
    qint64 id = 0;
    QString path;
    qint64 fileSize = 0;
    qint64 fileMtimeMs = 0;  // modification time when inspected; a change means re-inspect
    QString sha256;
    QString architecture;     // general.architecture
    QString name;             // general.name, else the file name
    QString fileType;         // "F16", "Q4_K_M", ...
    quint64 parameterCount = 0;
    quint32 contextLength = 0;
    quint32 layers = 0;
    double kvBytesPerTokenF16 = 0;  // KV cache bytes per token with an F16 cache
    bool supported = false;         // the engine can run this architecture
    QString originRepo;             // "owner/name" when downloaded from the hub
    QDateTime addedAt;
    QDateTime lastUsedAt;
    QString metadataJson;  // {"key": "display value", ...} of every GGUF metadata key
    QString chatTemplate;  // the user's Jinja chat template for this model; empty: the file's own

    // Run-time state, not stored.
    bool fileMissing = false;  // the file was not there at the last check
    bool hashing = false;      // a hash job is queued or running
};

}  // namespace hearth::app
