#pragma once
// An owned QThread that hosts one worker QObject (the pattern qBittorrent and Qt's docs use for I/O
// workers): the worker is moved to the thread, lives and dies there, and talks to its owner only
// through queued signals. Destroying the WorkerThread stops the event loop, deletes the worker on
// its own thread and joins.
//
// Invariants: after start() the worker belongs to thread() until the thread ends; the owner never
// calls the worker's methods directly (only Qt::QueuedConnection connects or
// QMetaObject::invokeMethod with Qt::QueuedConnection / Qt::BlockingQueuedConnection).

#include <QObject>
#include <QString>
#include <QThread>

namespace hearth::app {

class WorkerThread {
public:
    explicit WorkerThread(const QString& name);
    ~WorkerThread();
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    // Moves `worker` (which must have no parent) to the thread and starts it. Once.
    template <class Worker>
    Worker* start(Worker* worker) {
        adopt(worker);
        return worker;
    }
    QThread* thread() { return &thread_; }
    // Quits the event loop and waits for the thread (the worker is deleted there). Idempotent.
    void stop();

private:
    void adopt(QObject* worker);
    QThread thread_;
};

}  // namespace hearth::app
