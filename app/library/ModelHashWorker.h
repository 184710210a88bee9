#pragma once
// Hashes model files on the library's worker thread, one job at a time, in the order queued.
// Lives on a WorkerThread; reached only through queued signals.
#include <QObject>

#include "library/HashJob.h"

namespace hearth::app {

class ModelHashWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

public slots:
    void hash(const hearth::app::HashJob& job);

signals:
    void progress(qint64 modelId, qint64 done, qint64 total);
    void finished(qint64 modelId, const QString& path, const QString& sha256);
    void failed(qint64 modelId, const QString& path, const QString& error, bool cancelled);
};

}  // namespace hearth::app
