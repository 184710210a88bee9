#pragma once
// Writes SqlBatches to a SQLite file on a worker thread, each in one transaction, so a crash or a
// failed statement leaves the database as it was before the batch (WAL journal, set up by
// Database::open). Lives on a WorkerThread; the owner reaches it only through queued calls.
//
// Invariant: `pending` (shared with the owner) counts batches posted and not yet finished; the
// owner increments it before posting, the writer decrements it after each batch, success or not.
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "core/SchemaMigration.h"
#include "core/SqlBatch.h"
#include "hearth/result.h"

namespace hearth::app {

class SqlWriter : public QObject {
    Q_OBJECT
public:
    explicit SqlWriter(std::shared_ptr<std::atomic<int>> pending);
    ~SqlWriter() override;

    // Opens the writer's own connection; call on the writer's thread (BlockingQueuedConnection).
    // `schema` is the owner's (already applied by the owner, so this only checks the version).
    Status openHere(const QString& path, const QList<SchemaMigration>& schema);

public slots:
    void write(const hearth::app::SqlBatch& batch);

signals:
    void failed(const QString& error);

private:
    std::shared_ptr<std::atomic<int>> pending_;
    QString connection_;
};

}  // namespace hearth::app
