#include "library/ModelLibrary.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include "core/Database.h"
#include "core/GgufFileName.h"
#include "library/LibrarySchema.h"
#include "library/ModelHashWorker.h"
#include "library/ModelInspection.h"
#include "library/ModelTable.h"

namespace hearth::app {
namespace {
bool sameFile(const ModelRecord& r, const QFileInfo& f) {
    return r.fileSize == f.size() && r.fileMtimeMs == f.lastModified().toMSecsSinceEpoch();
}
bool isSha256Hex(const QString& s) {
    if (s.size() != 64) return false;
    for (QChar c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}
}  // namespace

ModelLibrary::ModelLibrary(QObject* parent) : QObject(parent) {
    qRegisterMetaType<HashJob>();
}

ModelLibrary::~ModelLibrary() { close(); }

Status ModelLibrary::requireOpen() const {
    if (connection_.isEmpty()) return makeError(ErrorCode::InvalidArgument, "the model library is not open");
    return Status::success();
}

Status ModelLibrary::open(const QString& databasePath) {
    close();
    const QString name = Database::uniqueConnectionName("library");
    auto db = Database::open(databasePath, name, librarySchema());
    if (!db) return db.error();
    auto rows = ModelTable(name).loadAll();
    if (!rows) {
        Database::close(name);
        return rows.error();
    }
    connection_ = name;
    databasePath_ = databasePath;
    for (ModelRecord& r : *rows) {
        r.fileMissing = !QFileInfo::exists(r.path);
        records_.insert(r.id, r);
    }
    hashThread_ = std::make_unique<WorkerThread>("hearth-library-hash");
    worker_ = hashThread_->start(new ModelHashWorker);
    connect(this, &ModelLibrary::hashRequested, worker_, &ModelHashWorker::hash, Qt::QueuedConnection);
    connect(worker_, &ModelHashWorker::progress, this, &ModelLibrary::onHashProgress, Qt::QueuedConnection);
    connect(worker_, &ModelHashWorker::finished, this, &ModelLibrary::onHashFinished, Qt::QueuedConnection);
    connect(worker_, &ModelHashWorker::failed, this, &ModelLibrary::onHashFailed, Qt::QueuedConnection);
    // Files that were never hashed (the app quit mid-hash, or a migrated database) get hashed now.
    for (const ModelRecord& r : std::as_const(records_))
        if (r.sha256.isEmpty() && !r.fileMissing) queueHash(r.id);
    return Status::success();
}

void ModelLibrary::close() {
    for (auto& flag : cancels_) flag->store(true);
    cancels_.clear();
    hashThread_.reset();  // joins; the worker is deleted on its thread
    worker_ = nullptr;
    records_.clear();
    if (!connection_.isEmpty()) Database::close(connection_);
    connection_.clear();
}

QList<ModelRecord> ModelLibrary::models() const {
    QList<ModelRecord> out;
    out.reserve(records_.size());
    for (ModelRecord r : records_) {
        r.hashing = cancels_.contains(r.id);
        out.append(r);
    }
    return out;
}

std::optional<ModelRecord> ModelLibrary::model(qint64 id) const {
    auto it = records_.find(id);
    if (it == records_.end()) return std::nullopt;
    ModelRecord r = *it;
    r.hashing = cancels_.contains(id);
    return r;
}

std::optional<ModelRecord> ModelLibrary::findByPath(const QString& path) const {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (const ModelRecord& r : records_)
        if (r.path == absolute) return model(r.id);
    return std::nullopt;
}

Result<ModelRecord> ModelLibrary::refreshRecord(const ModelRecord& existing, const QString& originRepo,
                                                const QString& knownSha256, bool* changed) {
    auto fresh = inspectModelFile(existing.path);
    if (!fresh) return fresh.error();
    ModelRecord r = *fresh;
    r.id = existing.id;
    r.addedAt = existing.addedAt;
    r.lastUsedAt = existing.lastUsedAt;
    r.chatTemplate = existing.chatTemplate;
    r.originRepo = originRepo.isEmpty() ? existing.originRepo : originRepo;
    const bool contentSame = existing.fileSize == r.fileSize && existing.fileMtimeMs == r.fileMtimeMs;
    r.sha256 = !knownSha256.isEmpty() ? knownSha256 : contentSame ? existing.sha256 : QString();
    *changed = !contentSame || r.sha256 != existing.sha256 || r.originRepo != existing.originRepo ||
               existing.layers == 0;
    if (*changed) HEARTH_TRY(ModelTable(connection_).update(r));
    return r;
}

Result<ModelRecord> ModelLibrary::addFile(const QString& path, const AddOptions& options) {
    HEARTH_TRY(requireOpen());
    const QString known = options.knownSha256.toLower();
    if (!known.isEmpty() && !isSha256Hex(known))
        return makeError(ErrorCode::InvalidArgument, ("not a SHA-256: " + options.knownSha256).toStdString());
    if (auto existing = findByPath(path)) {
        bool changed = false;
        auto r = refreshRecord(*existing, options.originRepo, known, &changed);
        if (!r) return r.error();
        records_[r->id] = *r;
        if (r->sha256.isEmpty() && !cancels_.contains(r->id)) queueHash(r->id);
        if (changed || existing->fileMissing) emit modelChanged(r->id);
        return model(r->id).value();
    }
    auto inspected = inspectModelFile(path);
    if (!inspected) return inspected.error();
    ModelRecord r = *inspected;
    r.originRepo = options.originRepo;
    r.sha256 = known;
    r.addedAt = QDateTime::currentDateTimeUtc();
    auto id = ModelTable(connection_).insert(r);
    if (!id) return id.error();
    r.id = *id;
    records_.insert(r.id, r);
    if (r.sha256.isEmpty()) queueHash(r.id);
    emit modelAdded(r.id);
    return model(r.id).value();
}

Result<ScanReport> ModelLibrary::scanFolder(const QString& folder, bool recursive) {
    HEARTH_TRY(requireOpen());
    const QFileInfo dirInfo(folder);
    if (!dirInfo.isDir())
        return makeError(ErrorCode::IoError, ("not a folder: " + folder).toStdString());
    const QString root = dirInfo.absoluteFilePath();
    ScanReport report;
    QDirIterator it(root, {"*.gguf", "*.GGUF"}, QDir::Files | QDir::Readable,
                    recursive ? QDirIterator::Subdirectories | QDirIterator::FollowSymlinks
                              : QDirIterator::NoIteratorFlags);
    while (it.hasNext()) {
        const QString path = it.next();
        const GgufFileName name = GgufFileName::parse(path);
        if (!name.isFirstPart()) continue;  // the first part stands for a split model
        const QFileInfo file(path);
        if (auto existing = findByPath(path)) {
            if (sameFile(*existing, file) && existing->layers != 0 && !existing->fileMissing) {
                report.unchanged.append(existing->id);
                continue;
            }
            bool changed = false;
            auto r = refreshRecord(*existing, {}, {}, &changed);
            if (!r) {
                report.failed.append({path, QString::fromStdString(r.error().message)});
                continue;
            }
            records_[r->id] = *r;
            if (r->sha256.isEmpty() && !cancels_.contains(r->id)) queueHash(r->id);
            report.updated.append(r->id);
            emit modelChanged(r->id);
            continue;
        }
        auto added = addFile(path);
        if (added)
            report.added.append(added->id);
        else
            report.failed.append({path, QString::fromStdString(added.error().message)});
    }
    for (ModelRecord& r : records_) {
        if (!r.path.startsWith(root + "/")) continue;
        if (!recursive && QFileInfo(r.path).absolutePath() != root) continue;
        const bool missing = !QFileInfo::exists(r.path);
        if (missing) report.missing.append(r.id);
        if (missing != r.fileMissing) {
            r.fileMissing = missing;
            emit modelChanged(r.id);
        }
    }
    return report;
}

Status ModelLibrary::remove(qint64 id, bool deleteFile) {
    HEARTH_TRY(requireOpen());
    auto it = records_.find(id);
    if (it == records_.end())
        return makeError(ErrorCode::InvalidArgument, "no model with id " + std::to_string(id));
    cancelHash(id);
    if (deleteFile && QFileInfo::exists(it->path)) {
        QFile file(it->path);
        if (!file.remove())
            return makeError(ErrorCode::IoError,
                             QString("cannot delete %1: %2").arg(it->path, file.errorString()).toStdString());
    }
    HEARTH_TRY(ModelTable(connection_).remove(id));
    records_.erase(it);
    emit modelRemoved(id);
    return Status::success();
}

Status ModelLibrary::setChatTemplate(qint64 id, const QString& source) {
    HEARTH_TRY(requireOpen());
    auto it = records_.find(id);
    if (it == records_.end())
        return makeError(ErrorCode::InvalidArgument, "no model with id " + std::to_string(id));
    ModelRecord r = *it;
    r.chatTemplate = source;
    HEARTH_TRY(ModelTable(connection_).update(r));  // stored first, then the cached record
    *it = r;
    emit modelChanged(id);
    return Status::success();
}

Status ModelLibrary::markUsed(qint64 id) {
    HEARTH_TRY(requireOpen());
    auto it = records_.find(id);
    if (it == records_.end())
        return makeError(ErrorCode::InvalidArgument, "no model with id " + std::to_string(id));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    HEARTH_TRY(ModelTable(connection_).setLastUsed(id, now));
    it->lastUsedAt = now;
    emit modelChanged(id);
    return Status::success();
}

QList<qint64> ModelLibrary::refreshAvailability() {
    QList<qint64> missing;
    for (ModelRecord& r : records_) {
        const bool gone = !QFileInfo::exists(r.path);
        if (gone) missing.append(r.id);
        if (gone != r.fileMissing) {
            r.fileMissing = gone;
            emit modelChanged(r.id);
        }
    }
    return missing;
}

Status ModelLibrary::verifyFile(qint64 id) const {
    auto it = records_.find(id);
    if (it == records_.end())
        return makeError(ErrorCode::InvalidArgument, "no model with id " + std::to_string(id));
    const QFileInfo file(it->path);
    if (!file.exists())
        return makeError(ErrorCode::IoError, ("the model file is missing: " + it->path).toStdString());
    if (file.size() != it->fileSize)
        return makeError(ErrorCode::Corrupt, QString("%1 changed size (%2 bytes, the library has %3)")
                                                 .arg(it->path)
                                                 .arg(file.size())
                                                 .arg(it->fileSize)
                                                 .toStdString());
    return Status::success();
}

Status ModelLibrary::rehash(qint64 id) {
    HEARTH_TRY(requireOpen());
    if (!records_.contains(id))
        return makeError(ErrorCode::InvalidArgument, "no model with id " + std::to_string(id));
    if (!cancels_.contains(id)) queueHash(id);
    return Status::success();
}

void ModelLibrary::queueHash(qint64 id) {
    auto flag = std::make_shared<std::atomic<bool>>(false);
    cancels_.insert(id, flag);
    emit hashRequested(HashJob{id, records_.value(id).path, flag});
}

void ModelLibrary::cancelHash(qint64 id) {
    if (auto flag = cancels_.take(id)) flag->store(true);
}

void ModelLibrary::onHashProgress(qint64 id, qint64 done, qint64 total) {
    if (cancels_.contains(id)) emit hashProgress(id, done, total);
}

void ModelLibrary::onHashFinished(qint64 id, const QString& path, const QString& sha256) {
    // A result for a job that was cancelled, or for a path the record no longer has, is stale.
    if (!cancels_.contains(id) || !records_.contains(id) || records_[id].path != path) return;
    cancels_.remove(id);
    ModelRecord& r = records_[id];
    if (!sameFile(r, QFileInfo(path))) {  // the file changed while we read it: hash again
        queueHash(id);
        return;
    }
    if (auto s = ModelTable(connection_).setSha256(id, sha256); !s) {
        emit hashFailed(id, QString::fromStdString(s.error().message), false);
        return;
    }
    r.sha256 = sha256;
    emit modelChanged(id);
    emit hashFinished(id, sha256);
}

void ModelLibrary::onHashFailed(qint64 id, const QString& path, const QString& error, bool cancelled) {
    // A cancelled job's flag was already taken by cancelHash(); a newer job may be queued.
    if (!cancelled) {
        if (!cancels_.contains(id)) return;
        cancels_.remove(id);
        if (records_.contains(id) && !QFileInfo::exists(path)) {
            records_[id].fileMissing = true;
            emit modelChanged(id);
        }
    }
    emit hashFailed(id, error, cancelled);
}

}  // namespace hearth::app
