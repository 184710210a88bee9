#include "core/WorkerThread.h"

namespace hearth::app {

WorkerThread::WorkerThread(const QString& name) { thread_.setObjectName(name); }

WorkerThread::~WorkerThread() { stop(); }

void WorkerThread::adopt(QObject* worker) {
    worker->moveToThread(&thread_);
    // Deferred deletes posted before the thread's loop ends are run by the thread itself, so the
    // worker's destructor (closing its SQL connection, network manager) runs on the right thread.
    QObject::connect(&thread_, &QThread::finished, worker, &QObject::deleteLater);
    thread_.start();
}

void WorkerThread::stop() {
    if (!thread_.isRunning()) return;
    thread_.quit();
    thread_.wait();
}

}  // namespace hearth::app
