#pragma once
// A request to hash one model file, passed from ModelLibrary to ModelHashWorker through a queued
// signal. The cancel flag is shared: the library sets it, the worker polls it between chunks.
#include <QMetaType>
#include <QString>
#include <atomic>
#include <memory>

namespace hearth::app {

struct HashJob {
    qint64 modelId = 0;
    QString path;
    std::shared_ptr<std::atomic<bool>> cancel;
};

}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::app::HashJob)
