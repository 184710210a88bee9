#pragma once
// The API server's SQLite schema history (server.sqlite; see SchemaMigration for the rules).
//   1: api_keys(key_id, name, salt, hash, created_at, revoked_at, max_concurrent,
//      tokens_per_minute; names unique among keys not revoked) and access_log(at, key_name,
//      client, method, path, model, prompt_tokens, completion_tokens, status, duration_ms).
//      Times are ms since the epoch (UTC).
#include <QList>
#include <QString>

#include "core/SchemaMigration.h"

namespace hearth::app::server {

QList<SchemaMigration> serverSchema();
// <data folder>/server.sqlite, where `hearth-cli keys` and `serve` (and the desktop app) meet.
QString defaultServerDatabasePath();

}  // namespace hearth::app::server
