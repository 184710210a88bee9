#include "server/ServerSchema.h"

#include "settings/AppSettings.h"

namespace hearth::app::server {

QList<SchemaMigration> serverSchema() {
    return {
        {1,
         {"CREATE TABLE api_keys ("
          " id INTEGER PRIMARY KEY,"
          " key_id TEXT NOT NULL UNIQUE,"
          " name TEXT NOT NULL,"
          " salt BLOB NOT NULL,"
          " hash BLOB NOT NULL,"
          " created_at INTEGER NOT NULL,"
          " revoked_at INTEGER,"
          " max_concurrent INTEGER NOT NULL DEFAULT 0,"
          " tokens_per_minute INTEGER NOT NULL DEFAULT 0)",
          "CREATE UNIQUE INDEX api_keys_active_name ON api_keys(name) WHERE revoked_at IS NULL",
          "CREATE TABLE access_log ("
          " id INTEGER PRIMARY KEY,"
          " at INTEGER NOT NULL,"
          " key_name TEXT NOT NULL,"
          " client TEXT NOT NULL,"
          " method TEXT NOT NULL,"
          " path TEXT NOT NULL,"
          " model TEXT NOT NULL,"
          " prompt_tokens INTEGER NOT NULL,"
          " completion_tokens INTEGER NOT NULL,"
          " status INTEGER NOT NULL,"
          " duration_ms REAL NOT NULL)",
          "CREATE INDEX access_log_at ON access_log(at)"}},
    };
}

QString defaultServerDatabasePath() {
    AppSettings settings;
    return settings.dataFolder() + "/server.sqlite";
}

}  // namespace hearth::app::server
