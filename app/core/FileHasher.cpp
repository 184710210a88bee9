#include "core/FileHasher.h"

#include <QFile>

namespace hearth::app {
namespace {
constexpr qint64 kChunk = 1 << 20;
}

Status FileHasher::addFile(QCryptographicHash& hash, const QString& path, qint64 limit,
                           const std::atomic<bool>* cancel, const Progress& progress) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::IoError, QString("cannot read %1: %2").arg(path, file.errorString()).toStdString());
    const qint64 total = limit < 0 ? file.size() : limit;
    if (total > file.size())
        return makeError(ErrorCode::Truncated,
                         QString("%1 has %2 bytes, expected at least %3").arg(path).arg(file.size()).arg(total).toStdString());
    QByteArray buffer(int(kChunk), Qt::Uninitialized);
    qint64 done = 0;
    while (done < total) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return makeError(ErrorCode::Cancelled, ("hashing cancelled: " + path).toStdString());
        const qint64 want = std::min(kChunk, total - done);
        const qint64 got = file.read(buffer.data(), want);
        if (got <= 0)
            return makeError(ErrorCode::IoError,
                             QString("read error in %1 at byte %2: %3").arg(path).arg(done).arg(file.errorString()).toStdString());
        hash.addData(QByteArrayView(buffer.constData(), got));
        done += got;
        if (progress) progress(done, total);
    }
    return Status::success();
}

Result<QByteArray> FileHasher::sha256Hex(const QString& path, const std::atomic<bool>* cancel,
                                         const Progress& progress) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    HEARTH_TRY(addFile(hash, path, -1, cancel, progress));
    return hash.result().toHex();
}

}  // namespace hearth::app
