#include "downloads/DownloadWorker.h"

#include <QNetworkAccessManager>

#include "downloads/DownloadTransfer.h"

namespace hearth::app {

DownloadWorker::DownloadWorker() = default;

// Deleting the worker aborts the transfers' replies and keeps every .part. The transfers go first:
// their replies belong to the network manager, which must still exist while they are aborted.
DownloadWorker::~DownloadWorker() {
    qDeleteAll(findChildren<DownloadTransfer*>(Qt::FindDirectChildrenOnly));
    transfers_.clear();
    delete network_;
}

void DownloadWorker::start(const DownloadTask& task, quint64 run, const RetryPolicy& policy,
                           const QString& tokenAuthority, const QString& token) {
    if (!network_) network_ = new QNetworkAccessManager(this);
    if (DownloadTransfer* old = transfers_.value(task.id)) old->pause();  // a stale run: stop it first
    auto* transfer = new DownloadTransfer(task, run, policy, tokenAuthority, token, network_, this);
    transfers_.insert(task.id, transfer);
    // Same-thread connections: the transfer lives here too. The manager's connections to these
    // signals are the queued ones.
    connect(transfer, &DownloadTransfer::progress, this, &DownloadWorker::progress);
    connect(transfer, &DownloadTransfer::retrying, this, &DownloadWorker::retrying);
    connect(transfer, &DownloadTransfer::completed, this, [this, transfer](qint64 id, quint64 r, const QString& sha) {
        forget(id, transfer);
        emit completed(id, r, sha);
    });
    connect(transfer, &DownloadTransfer::failed, this, [this, transfer](qint64 id, quint64 r, const QString& e) {
        forget(id, transfer);
        emit failed(id, r, e);
    });
    connect(transfer, &DownloadTransfer::paused, this, [this, transfer](qint64 id, quint64 r, qint64 done) {
        forget(id, transfer);
        emit paused(id, r, done);
    });
    connect(transfer, &DownloadTransfer::cancelled, this, [this, transfer](qint64 id, quint64 r) {
        forget(id, transfer);
        emit cancelled(id, r);
    });
    transfer->start();
}

void DownloadWorker::forget(qint64 id, DownloadTransfer* transfer) {
    if (transfers_.value(id) == transfer) transfers_.remove(id);
    transfer->deleteLater();
}

void DownloadWorker::pause(qint64 id) {
    if (DownloadTransfer* t = transfers_.value(id)) t->pause();
}

void DownloadWorker::cancel(qint64 id) {
    if (DownloadTransfer* t = transfers_.value(id)) t->cancel();
}

}  // namespace hearth::app
