#pragma once
// One step of a SQLite schema's history, applied by Database::open().
//
// Invariants: `version` is the schema version the database has after this step (PRAGMA
// user_version); a service's steps are listed in increasing version order starting at 1, with no
// gaps, and a released step is never edited (a later step changes what it did).

#include <QStringList>

namespace hearth::app {

struct SchemaMigration {
    int version = 0;
    QStringList statements;  // run in order inside one transaction
};

}  // namespace hearth::app
