#include "library/LibrarySchema.h"

namespace hearth::app {

QList<SchemaMigration> librarySchema() {
    return {
        {1,
         {R"(CREATE TABLE models (
               id INTEGER PRIMARY KEY AUTOINCREMENT,
               path TEXT NOT NULL UNIQUE,
               file_size INTEGER NOT NULL,
               file_mtime INTEGER NOT NULL,
               sha256 TEXT NOT NULL DEFAULT '',
               architecture TEXT NOT NULL DEFAULT '',
               name TEXT NOT NULL DEFAULT '',
               file_type TEXT NOT NULL DEFAULT '',
               parameter_count INTEGER NOT NULL DEFAULT 0,
               context_length INTEGER NOT NULL DEFAULT 0,
               origin_repo TEXT NOT NULL DEFAULT '',
               added_at INTEGER NOT NULL,
               last_used_at INTEGER))"}},
        {2,
         {"ALTER TABLE models ADD COLUMN layers INTEGER NOT NULL DEFAULT 0",
          "ALTER TABLE models ADD COLUMN kv_bytes_per_token REAL NOT NULL DEFAULT 0",
          "ALTER TABLE models ADD COLUMN supported INTEGER NOT NULL DEFAULT 0",
          "ALTER TABLE models ADD COLUMN metadata_json TEXT NOT NULL DEFAULT ''",
          "CREATE INDEX models_sha256 ON models(sha256)"}},
        // The user's chat template for this model ('' = the template in the file).
        {3, {"ALTER TABLE models ADD COLUMN chat_template TEXT NOT NULL DEFAULT ''"}},
    };
}

}  // namespace hearth::app
