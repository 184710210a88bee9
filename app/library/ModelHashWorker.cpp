#include "library/ModelHashWorker.h"

#include <QElapsedTimer>

#include "core/FileHasher.h"

namespace hearth::app {

void ModelHashWorker::hash(const HashJob& job) {
    QElapsedTimer sinceReport;
    sinceReport.start();
    // At most ~10 progress signals a second: the GUI only draws a bar.
    auto report = [&](qint64 done, qint64 total) {
        if (done == total || sinceReport.elapsed() >= 100) {
            sinceReport.restart();
            emit progress(job.modelId, done, total);
        }
    };
    auto sha = FileHasher::sha256Hex(job.path, job.cancel.get(), report);
    if (sha)
        emit finished(job.modelId, job.path, QString::fromLatin1(*sha));
    else
        emit failed(job.modelId, job.path, QString::fromStdString(sha.error().message),
                    sha.error().code == ErrorCode::Cancelled);
}

}  // namespace hearth::app
