#pragma once
// The local model library: GGUF files on disk, their header metadata and SHA-256, where they came
// from, when they were used. Backed by a SQLite file (Qt SQL); a corrupt or newer database is
// reported by open(), a missing model file is flagged (fileMissing), neither is fatal.
//
// Threads: a ModelLibrary lives on the GUI thread and its connection is used there. Hashing runs on
// an owned worker thread (ModelHashWorker), reached through queued signals, with progress and
// cancel. Item models in ui/ keep rows by id and listen to modelAdded/Changed/Removed.
//
// Invariants: models() is what the database holds, in id order, plus run-time flags; every
// change to a record is written to the database before its signal is emitted; at most one hash
// job per model is queued or running.

#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>

#include "core/WorkerThread.h"
#include "hearth/result.h"
#include "library/HashJob.h"
#include "library/ModelRecord.h"
#include "library/ScanReport.h"

namespace hearth::app {

class ModelHashWorker;

class ModelLibrary : public QObject {
    Q_OBJECT
public:
    struct AddOptions {
        QString originRepo;     // "owner/name" for downloads
        QString knownSha256;    // a hash already verified (downloads): no re-hash
    };

    explicit ModelLibrary(QObject* parent = nullptr);
    ~ModelLibrary() override;

    // Opens or creates the database; migrates it. Errors: Corrupt (not a database / damaged),
    // UnsupportedVersion (written by a newer Hearth), IoError.
    Status open(const QString& databasePath);
    void close();
    bool isOpen() const { return !connection_.isEmpty(); }
    QString databasePath() const { return databasePath_; }

    QList<ModelRecord> models() const;
    std::optional<ModelRecord> model(qint64 id) const;
    std::optional<ModelRecord> findByPath(const QString& path) const;

    // Adds (or refreshes, if the path is known) one GGUF file and queues its hash.
    Result<ModelRecord> addFile(const QString& path, const AddOptions& options);
    Result<ModelRecord> addFile(const QString& path) { return addFile(path, AddOptions{}); }
    // Adds every *.gguf under `folder` (split models once, by their first part), re-inspects
    // changed files and flags records whose file is gone.
    Result<ScanReport> scanFolder(const QString& folder, bool recursive = true);
    // Forgets a model; with deleteFile, removes the file first (if that fails, nothing changes).
    Status remove(qint64 id, bool deleteFile);
    Status markUsed(qint64 id);
    // The user's chat template for the model (Jinja source; empty: back to the file's own).
    Status setChatTemplate(qint64 id, const QString& source);
    // Re-checks every record's file; returns the ids that are missing now.
    QList<qint64> refreshAvailability();
    // An error value when the record's file is missing or changed size since it was added.
    Status verifyFile(qint64 id) const;

    // Queues a (re-)hash; cancelHash stops a queued or running one (hashFailed with cancelled).
    Status rehash(qint64 id);
    void cancelHash(qint64 id);
    bool isHashing(qint64 id) const { return cancels_.contains(id); }

signals:
    void modelAdded(qint64 id);
    void modelChanged(qint64 id);
    void modelRemoved(qint64 id);
    void hashProgress(qint64 id, qint64 done, qint64 total);
    void hashFinished(qint64 id, const QString& sha256);
    void hashFailed(qint64 id, const QString& error, bool cancelled);
    void hashRequested(const hearth::app::HashJob& job);  // to the worker (queued)

private slots:
    void onHashProgress(qint64 id, qint64 done, qint64 total);
    void onHashFinished(qint64 id, const QString& path, const QString& sha256);
    void onHashFailed(qint64 id, const QString& path, const QString& error, bool cancelled);

private:
    Result<ModelRecord> refreshRecord(const ModelRecord& existing, const QString& originRepo,
                                      const QString& knownSha256, bool* changed);
    void queueHash(qint64 id);
    Status requireOpen() const;

    QString connection_;
    QString databasePath_;
    QMap<qint64, ModelRecord> records_;
    QHash<qint64, std::shared_ptr<std::atomic<bool>>> cancels_;
    std::unique_ptr<WorkerThread> hashThread_;
    ModelHashWorker* worker_ = nullptr;
};

}  // namespace hearth::app
