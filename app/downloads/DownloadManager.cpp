#include "downloads/DownloadManager.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include "core/GgufFileName.h"
#include "downloads/DownloadWorker.h"
#include "library/ModelLibrary.h"

namespace hearth::app {
namespace {
constexpr qint64 kProgressSaveIntervalMs = 2000;

bool isTerminal(DownloadState s) {
    return s == DownloadState::Completed || s == DownloadState::Failed || s == DownloadState::Cancelled;
}

Error noTask(qint64 id) { return makeError(ErrorCode::InvalidArgument, "no download with id " + std::to_string(id)); }
}  // namespace

DownloadManager::DownloadManager(QObject* parent) : QObject(parent) {
    qRegisterMetaType<DownloadTask>();
    qRegisterMetaType<RetryPolicy>();
}

DownloadManager::~DownloadManager() {
    // Joining the worker thread deletes the worker and its transfers: replies are aborted and the
    // .part files stay. The database still says "running" for those: open() resumes them.
    thread_.reset();
    worker_ = nullptr;
}

Status DownloadManager::open(const QString& queueDatabasePath) {
    if (thread_) return makeError(ErrorCode::InvalidArgument, "the download manager is already open");
    HEARTH_TRY(store_.open(queueDatabasePath));
    auto loaded = store_.load();
    if (!loaded) return loaded.error();
    thread_ = std::make_unique<WorkerThread>("hearth-downloads");
    worker_ = thread_->start(new DownloadWorker);
    connect(this, &DownloadManager::startRequested, worker_, &DownloadWorker::start, Qt::QueuedConnection);
    connect(this, &DownloadManager::pauseRequested, worker_, &DownloadWorker::pause, Qt::QueuedConnection);
    connect(this, &DownloadManager::cancelRequested, worker_, &DownloadWorker::cancel, Qt::QueuedConnection);
    connect(worker_, &DownloadWorker::progress, this, &DownloadManager::onProgress, Qt::QueuedConnection);
    connect(worker_, &DownloadWorker::retrying, this, &DownloadManager::onRetrying, Qt::QueuedConnection);
    connect(worker_, &DownloadWorker::completed, this, &DownloadManager::onCompleted, Qt::QueuedConnection);
    connect(worker_, &DownloadWorker::failed, this, &DownloadManager::onFailed, Qt::QueuedConnection);
    connect(worker_, &DownloadWorker::paused, this, &DownloadManager::onPaused, Qt::QueuedConnection);
    for (DownloadTask t : *loaded) {
        if (t.state == DownloadState::Running) t.state = DownloadState::Queued;  // the app stopped mid-download
        t.bytesPerSecond = 0;
        t.etaSeconds = -1;
        tasks_.insert(t.id, t);
    }
    schedule();
    return Status::success();
}

void DownloadManager::setMaxConcurrent(int n) {
    maxConcurrent_ = std::max(1, n);
    schedule();
}

void DownloadManager::setHubToken(const QUrl& hubUrl, const QString& token) {
    tokenAuthority_ = QString("%1:%2").arg(hubUrl.host()).arg(hubUrl.port(hubUrl.scheme() == "https" ? 443 : 80));
    token_ = token;
}

std::optional<DownloadTask> DownloadManager::task(qint64 id) const {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return std::nullopt;
    return *it;
}

int DownloadManager::runningCount() const {
    int n = 0;
    for (const DownloadTask& t : tasks_) n += t.state == DownloadState::Running;
    return n;
}

Result<qint64> DownloadManager::enqueue(const DownloadRequest& request) {
    if (!thread_) return makeError(ErrorCode::InvalidArgument, "the download manager is not open");
    if (!request.url.isValid() || (request.url.scheme() != "https" && request.url.scheme() != "http"))
        return makeError(ErrorCode::InvalidArgument, ("not an http(s) URL: " + request.url.toString()).toStdString());
    if (!QDir::isAbsolutePath(request.destination) || request.destination.endsWith('/'))
        return makeError(ErrorCode::InvalidArgument, ("need an absolute file path: " + request.destination).toStdString());
    static const QRegularExpression sha("^[0-9a-fA-F]{64}$");
    if (!request.expectedSha256.isEmpty() && !sha.match(request.expectedSha256).hasMatch())
        return makeError(ErrorCode::InvalidArgument, ("not a SHA-256: " + request.expectedSha256).toStdString());
    const QString destination = QDir::cleanPath(request.destination);
    for (const DownloadTask& t : tasks_)
        if (!isTerminal(t.state) && t.request.destination == destination)
            return makeError(ErrorCode::InvalidArgument, ("already downloading to " + destination).toStdString());
    DownloadTask t;
    t.request = request;
    t.request.destination = destination;
    t.request.expectedSha256 = request.expectedSha256.toLower();
    t.totalBytes = request.expectedSize;
    t.addedAt = QDateTime::currentDateTimeUtc();
    auto id = store_.insert(t);
    if (!id) return id.error();
    t.id = *id;
    tasks_.insert(t.id, t);
    emit taskAdded(t.id);
    schedule();
    return t.id;
}

void DownloadManager::schedule() {
    if (!worker_) return;
    int running = runningCount();
    for (DownloadTask& t : tasks_) {
        if (running >= maxConcurrent_) break;
        if (t.state != DownloadState::Queued) continue;
        t.state = DownloadState::Running;
        t.attempts = 1;
        t.error.clear();
        const quint64 run = nextRun_++;
        runs_[t.id] = run;
        save(t, true);
        emit startRequested(t, run, policy_, tokenAuthority_, token_);
        emit taskChanged(t.id);
        ++running;
    }
}

void DownloadManager::save(DownloadTask& t, bool force) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!force && now - lastSavedMs_.value(t.id) < kProgressSaveIntervalMs) return;
    lastSavedMs_[t.id] = now;
    if (auto s = store_.save(t); !s) qWarning("download queue: %s", s.error().message.c_str());
}

Status DownloadManager::pause(qint64 id) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return noTask(id);
    if (it->state != DownloadState::Running && it->state != DownloadState::Queued)
        return makeError(ErrorCode::InvalidArgument, "only a queued or running download can be paused");
    if (it->state == DownloadState::Running) emit pauseRequested(id);
    runs_.remove(id);
    it->state = DownloadState::Paused;
    it->bytesPerSecond = 0;
    it->etaSeconds = -1;
    save(*it, true);
    emit taskChanged(id);
    schedule();
    return Status::success();
}

Status DownloadManager::resume(qint64 id) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return noTask(id);
    if (it->state != DownloadState::Paused && it->state != DownloadState::Failed)
        return makeError(ErrorCode::InvalidArgument, "only a paused or failed download can be resumed");
    it->state = DownloadState::Queued;
    it->error.clear();
    save(*it, true);
    emit taskChanged(id);
    schedule();
    return Status::success();
}

Status DownloadManager::cancel(qint64 id) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return noTask(id);
    if (it->state == DownloadState::Completed || it->state == DownloadState::Cancelled)
        return makeError(ErrorCode::InvalidArgument, "the download has already ended");
    if (it->state == DownloadState::Running)
        emit cancelRequested(id);  // the worker deletes the .part once its transfer has stopped
    else
        QFile::remove(it->partPath());
    runs_.remove(id);
    it->state = DownloadState::Cancelled;
    it->bytesDone = 0;
    it->bytesPerSecond = 0;
    it->etaSeconds = -1;
    it->finishedAt = QDateTime::currentDateTimeUtc();
    save(*it, true);
    emit taskChanged(id);
    schedule();
    return Status::success();
}

Status DownloadManager::remove(qint64 id) {
    auto it = tasks_.find(id);
    if (it == tasks_.end()) return noTask(id);
    if (!isTerminal(it->state)) HEARTH_TRY(cancel(id));
    HEARTH_TRY(store_.remove(id));
    tasks_.remove(id);
    lastSavedMs_.remove(id);
    emit taskRemoved(id);
    return Status::success();
}

DownloadTask* DownloadManager::current(qint64 id, quint64 run) {
    auto it = tasks_.find(id);
    if (it == tasks_.end() || runs_.value(id) != run || it->state != DownloadState::Running) return nullptr;
    return &*it;
}

void DownloadManager::onProgress(qint64 id, quint64 run, qint64 done, qint64 total, double bytesPerSecond, int attempt) {
    DownloadTask* t = current(id, run);
    if (!t) return;
    t->bytesDone = done;
    if (total >= 0) t->totalBytes = total;
    t->bytesPerSecond = bytesPerSecond;
    t->attempts = attempt;
    t->etaSeconds = t->totalBytes >= 0 && bytesPerSecond > 1 ? qint64((t->totalBytes - done) / bytesPerSecond) : -1;
    save(*t, false);
    emit taskChanged(id);
}

void DownloadManager::onRetrying(qint64 id, quint64 run, int attempt, int delayMs, const QString& why) {
    DownloadTask* t = current(id, run);
    if (!t) return;
    t->attempts = attempt;
    t->error.clear();
    t->bytesPerSecond = 0;
    t->etaSeconds = -1;
    qInfo("download %lld: %s; attempt %d in %d ms", id, qPrintable(why), attempt, delayMs);
    emit taskChanged(id);
}

void DownloadManager::onCompleted(qint64 id, quint64 run, const QString& sha256) {
    auto it = tasks_.find(id);
    // A pause that crossed the finish line still ends in Completed: the file is whole and verified.
    if (it == tasks_.end() || it->state == DownloadState::Cancelled) return;
    if (runs_.value(id) != run && it->state != DownloadState::Paused) return;
    runs_.remove(id);
    it->state = DownloadState::Completed;
    it->sha256 = sha256;
    it->bytesDone = it->totalBytes >= 0 ? it->totalBytes : it->bytesDone;
    it->bytesPerSecond = 0;
    it->etaSeconds = 0;
    it->finishedAt = QDateTime::currentDateTimeUtc();
    save(*it, true);
    const QString path = it->request.destination;
    const GgufFileName name = GgufFileName::parse(path);
    if (library_ && name.isGguf && name.isFirstPart()) {
        auto added = library_->addFile(path, {it->request.repo, sha256});
        if (!added) emit libraryAddFailed(id, QString::fromStdString(added.error().message));
    }
    emit taskChanged(id);
    emit taskFinished(id, path);
    schedule();
}

void DownloadManager::onFailed(qint64 id, quint64 run, const QString& error) {
    DownloadTask* t = current(id, run);
    if (!t) return;
    runs_.remove(id);
    t->state = DownloadState::Failed;
    t->error = error;
    t->bytesPerSecond = 0;
    t->etaSeconds = -1;
    if (QFile::exists(t->partPath())) t->bytesDone = QFile(t->partPath()).size();
    else t->bytesDone = 0;
    save(*t, true);
    emit taskChanged(id);
    emit taskFailed(id, error);
    schedule();
}

void DownloadManager::onPaused(qint64 id, quint64, qint64 done) {
    auto it = tasks_.find(id);
    if (it == tasks_.end() || it->state != DownloadState::Paused) return;
    it->bytesDone = done;
    save(*it, true);
    emit taskChanged(id);
}

}  // namespace hearth::app
