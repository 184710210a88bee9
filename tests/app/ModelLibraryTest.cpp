// ModelLibrary on a real SQLite file with the real GGUF models from ../shared/models.
#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include "TestPaths.h"
#include "core/Database.h"
#include "library/ModelLibrary.h"

using namespace hearth::app;

namespace {
const QString kStoriesSha = "270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d";
QString model(const char* name) { return QString::fromStdString(hearth::test::modelPath(name)); }
}  // namespace

class ModelLibraryTest : public QObject {
    Q_OBJECT
private slots:
    void addsRealModelWithMetadataAndHash();
    void reopenKeepsRecordsWithoutRehash();
    void scanRescanChangeAndMissing();
    void splitPartsAreAddedOnce();
    void deleteRemovesFileWhenAsked();
    void badFilesAreErrorsNotCrashes();
    void corruptDatabaseIsReported();
    void damagedPagesAreReported();
    void newerSchemaIsRefused();
    void migratesVersionOneDatabase();
    void cancelHashing();
    void knownShaSkipsHashing();

private:
    QString copyModel(const char* name, const QString& to) {
        QDir().mkpath(QFileInfo(to).absolutePath());
        QFile::remove(to);
        if (!QFile::copy(model(name), to)) return {};
        QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        return to;
    }
    QTemporaryDir dir_;
};

void ModelLibraryTest::addsRealModelWithMetadataAndHash() {
    ModelLibrary lib;
    auto opened = lib.open(dir_.filePath("a/library.db"));
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
    QSignalSpy added(&lib, &ModelLibrary::modelAdded);
    QSignalSpy hashed(&lib, &ModelLibrary::hashFinished);
    QSignalSpy progress(&lib, &ModelLibrary::hashProgress);
    auto r = lib.addFile(model("stories260K.gguf"), {"karpathy/tinyllamas", {}});
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(added.count(), 1);
    QCOMPARE(r->architecture, QString("llama"));
    QCOMPARE(r->layers, 5u);
    QCOMPARE(r->fileSize, qint64(1185376));
    QVERIFY2(r->parameterCount > 250000 && r->parameterCount < 320000, QByteArray::number(r->parameterCount));
    QVERIFY(r->contextLength > 0);
    QVERIFY(r->supported);
    QCOMPARE(r->fileType, QString("F32"));
    // 2 (K and V) x 5 layers x 4 KV heads x head dim 8 x 2 bytes.
    QCOMPARE(r->kvBytesPerTokenF16, 640.0);
    QCOMPARE(r->originRepo, QString("karpathy/tinyllamas"));
    QVERIFY(r->hashing);
    QVERIFY(r->metadataJson.contains("general.architecture"));
    QVERIFY(hashed.wait(20000));
    QCOMPARE(hashed.first().at(1).toString(), kStoriesSha);
    QVERIFY(progress.count() >= 1);
    QCOMPARE(progress.last().at(1).toLongLong(), qint64(1185376));
    QCOMPARE(lib.model(r->id)->sha256, kStoriesSha);
    QVERIFY(!lib.isHashing(r->id));
    QVERIFY(lib.markUsed(r->id).ok());
    QVERIFY(lib.model(r->id)->lastUsedAt.isValid());
}

void ModelLibraryTest::reopenKeepsRecordsWithoutRehash() {
    const QString db = dir_.filePath("b/library.db");
    qint64 id = 0;
    {
        ModelLibrary lib;
        QVERIFY(lib.open(db).ok());
        QSignalSpy hashed(&lib, &ModelLibrary::hashFinished);
        auto r = lib.addFile(model("tiny-llama-q4_0.gguf"));
        QVERIFY(r.ok());
        id = r->id;
        QVERIFY(hashed.wait(20000));
        QVERIFY(lib.markUsed(id).ok());
    }
    ModelLibrary lib;
    QVERIFY(lib.open(db).ok());
    QCOMPARE(lib.models().size(), 1);
    const ModelRecord r = *lib.model(id);
    QCOMPARE(r.fileType, QString("Q4_0"));
    QCOMPARE(r.sha256.size(), 64);
    QVERIFY(r.lastUsedAt.isValid());
    QVERIFY(r.addedAt.isValid());
    QVERIFY(!lib.isHashing(id));
    QVERIFY(!r.fileMissing);
    QCOMPARE(lib.findByPath(model("tiny-llama-q4_0.gguf"))->id, id);
}

void ModelLibraryTest::scanRescanChangeAndMissing() {
    const QString folder = dir_.filePath("scan");
    QVERIFY(!copyModel("tiny-llama-q8_0.gguf", folder + "/a.gguf").isEmpty());
    QVERIFY(!copyModel("tiny-qwen3-q4_k_m.gguf", folder + "/sub/b.gguf").isEmpty());
    QFile notModel(folder + "/readme.txt");
    QVERIFY(notModel.open(QIODevice::WriteOnly));
    notModel.write("not a model");
    notModel.close();
    QFile fake(folder + "/broken.gguf");
    QVERIFY(fake.open(QIODevice::WriteOnly));
    fake.write("GGUF but not really");
    fake.close();

    ModelLibrary lib;
    QVERIFY(lib.open(dir_.filePath("scan.db")).ok());
    auto first = lib.scanFolder(folder);
    QVERIFY(first.ok());
    QCOMPARE(first->added.size(), 2);
    QCOMPARE(first->failed.size(), 1);
    QVERIFY(first->failed.first().first.endsWith("broken.gguf"));
    QVERIFY(!first->failed.first().second.isEmpty());
    auto nonRecursive = lib.scanFolder(folder, false);
    QVERIFY(nonRecursive.ok());
    QCOMPARE(nonRecursive->unchanged.size(), 1);

    auto second = lib.scanFolder(folder);
    QVERIFY(second.ok());
    QCOMPARE(second->added.size(), 0);
    QCOMPARE(second->unchanged.size(), 2);

    // Replace a.gguf by another model: same path, new content.
    QVERIFY(!copyModel("tiny-llama-q2_k.gguf", folder + "/a.gguf").isEmpty());
    QFile(folder + "/a.gguf").open(QIODevice::ReadWrite);
    QVERIFY(QFile(folder + "/a.gguf").size() != QFile(model("tiny-llama-q8_0.gguf")).size());
    QSignalSpy changed(&lib, &ModelLibrary::modelChanged);
    auto third = lib.scanFolder(folder);
    QVERIFY(third.ok());
    QCOMPARE(third->updated.size(), 1);
    QCOMPARE(lib.model(third->updated.first())->fileType, QString("Q2_K"));
    QVERIFY(lib.model(third->updated.first())->sha256.isEmpty() || lib.isHashing(third->updated.first()) ||
            lib.model(third->updated.first())->sha256.size() == 64);

    QVERIFY(QFile::remove(folder + "/sub/b.gguf"));
    auto fourth = lib.scanFolder(folder);
    QVERIFY(fourth.ok());
    QCOMPARE(fourth->missing.size(), 1);
    const qint64 goneId = fourth->missing.first();
    QVERIFY(lib.model(goneId)->fileMissing);
    auto verify = lib.verifyFile(goneId);
    QVERIFY(!verify.ok());
    QVERIFY(QString::fromStdString(verify.error().message).contains("missing"));
    QCOMPARE(lib.refreshAvailability(), QList<qint64>{goneId});
}

void ModelLibraryTest::splitPartsAreAddedOnce() {
    const QString folder = dir_.filePath("split");
    QVERIFY(!copyModel("tiny-llama-q4_0.gguf", folder + "/m-00001-of-00002.gguf").isEmpty());
    QVERIFY(!copyModel("tiny-llama-q4_0.gguf", folder + "/m-00002-of-00002.gguf").isEmpty());
    ModelLibrary lib;
    QVERIFY(lib.open(dir_.filePath("split.db")).ok());
    auto report = lib.scanFolder(folder);
    QVERIFY(report.ok());
    QCOMPARE(report->added.size(), 1);
    QVERIFY(lib.model(report->added.first())->path.endsWith("-00001-of-00002.gguf"));
}

void ModelLibraryTest::deleteRemovesFileWhenAsked() {
    const QString keep = copyModel("tiny-llama-q4_0.gguf", dir_.filePath("del/keep.gguf"));
    const QString drop = copyModel("tiny-llama-q4_0.gguf", dir_.filePath("del/drop.gguf"));
    ModelLibrary lib;
    QVERIFY(lib.open(dir_.filePath("del.db")).ok());
    const qint64 keepId = lib.addFile(keep)->id;
    const qint64 dropId = lib.addFile(drop)->id;
    QSignalSpy removed(&lib, &ModelLibrary::modelRemoved);
    QVERIFY(lib.remove(keepId, false).ok());
    QVERIFY(QFile::exists(keep));
    QVERIFY(lib.remove(dropId, true).ok());
    QVERIFY(!QFile::exists(drop));
    QCOMPARE(removed.count(), 2);
    QVERIFY(lib.models().isEmpty());
    QVERIFY(!lib.remove(dropId, true).ok());  // unknown id: an error value
    ModelLibrary again;
    QVERIFY(again.open(dir_.filePath("del.db")).ok());
    QVERIFY(again.models().isEmpty());
}

void ModelLibraryTest::badFilesAreErrorsNotCrashes() {
    ModelLibrary lib;
    QVERIFY(!lib.addFile(model("stories260K.gguf")).ok());  // not open yet
    QVERIFY(lib.open(dir_.filePath("bad.db")).ok());
    auto missing = lib.addFile(dir_.filePath("nope.gguf"));
    QVERIFY(!missing.ok());
    QVERIFY(QString::fromStdString(missing.error().message).contains("not found"));
    QFile junk(dir_.filePath("junk.gguf"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write(QByteArray(4096, 'x'));
    junk.close();
    auto notGguf = lib.addFile(junk.fileName());
    QVERIFY(!notGguf.ok());
    QCOMPARE(notGguf.error().code, hearth::ErrorCode::BadMagic);
    QVERIFY(!lib.addFile(model("stories260K.gguf"), {{}, "xyz"}).ok());  // not a sha256
    QVERIFY(lib.models().isEmpty());
    QVERIFY(!lib.scanFolder(dir_.filePath("no-such-folder")).ok());
}

void ModelLibraryTest::corruptDatabaseIsReported() {
    const QString db = dir_.filePath("corrupt.db");
    QFile f(db);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray line = "this is not an sqlite database at all. ";
    for (int i = 0; i < 512; ++i) f.write(line);
    f.close();
    ModelLibrary lib;
    auto s = lib.open(db);
    QVERIFY(!s.ok());
    QCOMPARE(s.error().code, hearth::ErrorCode::Corrupt);
    QVERIFY2(QString::fromStdString(s.error().message).contains("damaged"), s.error().message.c_str());
    QVERIFY(!lib.isOpen());
    QCOMPARE(QFile(db).size(), qint64(512 * line.size()));  // left as it was, for the user to inspect
}

void ModelLibraryTest::damagedPagesAreReported() {
    const QString db = dir_.filePath("damaged.db");
    {
        ModelLibrary lib;
        QVERIFY(lib.open(db).ok());
        QVERIFY(lib.addFile(model("tiny-llama-q4_0.gguf"), {{}, QString(64, 'a')}).ok());
        QVERIFY(lib.addFile(model("tiny-llama-q8_0.gguf"), {{}, QString(64, 'b')}).ok());
    }
    QFile f(db);
    QVERIFY(f.size() >= 4096 * 2);
    QVERIFY(f.open(QIODevice::ReadWrite));
    // Scribble over the second page (the models table's b-tree) past its header.
    f.seek(4096 + 8);
    f.write(QByteArray(2048, '\xA5'));
    f.close();
    ModelLibrary lib;
    auto s = lib.open(db);
    QVERIFY(!s.ok());
    QCOMPARE(s.error().code, hearth::ErrorCode::Corrupt);
}

void ModelLibraryTest::newerSchemaIsRefused() {
    const QString db = dir_.filePath("newer.db");
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "newer");
        raw.setDatabaseName(db);
        QVERIFY(raw.open());
        QSqlQuery(raw).exec("PRAGMA user_version = 99");
        raw.close();
    }
    QSqlDatabase::removeDatabase("newer");
    ModelLibrary lib;
    auto s = lib.open(db);
    QVERIFY(!s.ok());
    QCOMPARE(s.error().code, hearth::ErrorCode::UnsupportedVersion);
    QVERIFY(QString::fromStdString(s.error().message).contains("99"));
}

void ModelLibraryTest::migratesVersionOneDatabase() {
    const QString db = dir_.filePath("v1.db");
    const QString path = QFileInfo(model("tiny-llama-q4_0.gguf")).absoluteFilePath();
    {
        // The released version-1 schema, written the way Hearth 0.1 did.
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "v1");
        raw.setDatabaseName(db);
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec("CREATE TABLE models (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, "
                       "file_size INTEGER NOT NULL, file_mtime INTEGER NOT NULL, sha256 TEXT NOT NULL DEFAULT '', "
                       "architecture TEXT NOT NULL DEFAULT '', name TEXT NOT NULL DEFAULT '', file_type TEXT NOT NULL "
                       "DEFAULT '', parameter_count INTEGER NOT NULL DEFAULT 0, context_length INTEGER NOT NULL "
                       "DEFAULT 0, origin_repo TEXT NOT NULL DEFAULT '', added_at INTEGER NOT NULL, last_used_at INTEGER)"));
        q.prepare("INSERT INTO models (path, file_size, file_mtime, sha256, architecture, name, file_type, "
                  "origin_repo, added_at) VALUES (?, ?, 0, ?, 'llama', 'old', 'Q4_0', 'someone/repo', 1700000000000)");
        q.addBindValue(path);
        q.addBindValue(QFileInfo(path).size());
        q.addBindValue(QString(64, 'c'));
        QVERIFY(q.exec());
        QVERIFY(q.exec("PRAGMA user_version = 1"));
        q.finish();
        raw.close();
    }
    QSqlDatabase::removeDatabase("v1");
    ModelLibrary lib;
    auto s = lib.open(db);
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
    QCOMPARE(lib.models().size(), 1);
    ModelRecord r = lib.models().first();
    QCOMPARE(r.originRepo, QString("someone/repo"));
    QCOMPARE(r.layers, 0u);  // not known to version 1
    QVERIFY(r.chatTemplate.isEmpty());  // version 3: no override
    QCOMPARE(r.addedAt.toMSecsSinceEpoch(), qint64(1700000000000));
    {
        QSqlDatabase check = QSqlDatabase::addDatabase("QSQLITE", "check");
        check.setDatabaseName(db);
        QVERIFY(check.open());
        QSqlQuery q(check);
        QVERIFY(q.exec("PRAGMA user_version") && q.next());
        QCOMPARE(q.value(0).toInt(), 3);
        q.finish();
        check.close();
    }
    QSqlDatabase::removeDatabase("check");
    // A rescan fills in what version 1 did not store (mtime differs, so it is re-inspected).
    auto report = lib.scanFolder(QFileInfo(path).absolutePath(), false);
    QVERIFY(report.ok());
    QVERIFY(lib.model(r.id)->layers > 0);
    QCOMPARE(lib.model(r.id)->originRepo, QString("someone/repo"));
}

void ModelLibraryTest::cancelHashing() {
    ModelLibrary lib;
    QVERIFY(lib.open(dir_.filePath("cancel.db")).ok());
    QSignalSpy failed(&lib, &ModelLibrary::hashFailed);
    QSignalSpy finished(&lib, &ModelLibrary::hashFinished);
    auto r = lib.addFile(model("coder-f16.gguf"));  // 46 MB: long enough to cancel mid-way
    QVERIFY(r.ok());
    QVERIFY(lib.isHashing(r->id));
    lib.cancelHash(r->id);
    QVERIFY(!lib.isHashing(r->id));
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.first().at(2).toBool(), true);
    QTest::qWait(50);
    QCOMPARE(finished.count(), 0);
    QVERIFY(lib.model(r->id)->sha256.isEmpty());
    // Asking again hashes to completion.
    QVERIFY(lib.rehash(r->id).ok());
    QVERIFY(finished.wait(30000));
    QCOMPARE(lib.model(r->id)->sha256.size(), 64);
}

void ModelLibraryTest::knownShaSkipsHashing() {
    ModelLibrary lib;
    QVERIFY(lib.open(dir_.filePath("known.db")).ok());
    auto r = lib.addFile(model("stories260K.gguf"), {"o/r", kStoriesSha.toUpper()});
    QVERIFY(r.ok());
    QVERIFY(!lib.isHashing(r->id));
    QCOMPARE(r->sha256, kStoriesSha);
}

QTEST_GUILESS_MAIN(ModelLibraryTest)
#include "ModelLibraryTest.moc"
