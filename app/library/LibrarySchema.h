#pragma once
// The model library's schema history (see SchemaMigration for the rules).
//   1: models(path, size, mtime, sha256, architecture, name, file type, parameters, context,
//      origin repo, added/last-used times in ms since the epoch, UTC)
//   2: + layers, kv_bytes_per_token, supported, metadata_json; index on sha256
#include <QList>

#include "core/SchemaMigration.h"

namespace hearth::app {
QList<SchemaMigration> librarySchema();
}
