#pragma once
// Streams a file through SHA-256 without reading it into memory. Shared by the model library (hash
// a model on its worker thread) and the download manager (re-hash a .part before resuming).
//
// Cancellation: a caller on another thread sets the atomic flag; the hasher checks it between
// chunks and returns ErrorCode::Cancelled.

#include <QByteArray>
#include <QCryptographicHash>
#include <QString>
#include <atomic>
#include <functional>

#include "hearth/result.h"

namespace hearth::app {

class FileHasher {
public:
    // Called after each chunk with bytes hashed so far and the bytes that will be hashed in all.
    using Progress = std::function<void(qint64 done, qint64 total)>;

    // Adds the first `limit` bytes of `path` (all of it when limit < 0) to `hash`. An error if the
    // file is shorter than `limit`, cannot be read, or `cancel` becomes true.
    static Status addFile(QCryptographicHash& hash, const QString& path, qint64 limit,
                          const std::atomic<bool>* cancel = nullptr, const Progress& progress = {});
    // The lower-case hex SHA-256 of the whole file.
    static Result<QByteArray> sha256Hex(const QString& path, const std::atomic<bool>* cancel = nullptr,
                                        const Progress& progress = {});
};

}  // namespace hearth::app
