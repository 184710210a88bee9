#pragma once
// What ModelLibrary::scanFolder() did. Files it could not read are listed with the reason; they do
// not stop the scan.
#include <QList>
#include <QPair>
#include <QString>
#include <QtGlobal>

namespace hearth::app {

struct ScanReport {
    QList<qint64> added;      // new records
    QList<qint64> updated;    // records whose file changed (re-inspected, re-hashed)
    QList<qint64> unchanged;
    QList<qint64> missing;    // records under the folder whose file is gone (kept, flagged)
    QList<QPair<QString, QString>> failed;  // (path, why)
};

}  // namespace hearth::app
