#pragma once
// The chat store's schema history (see SchemaMigration). Times are ms since the epoch (UTC).
//   1: conversations(id, title, model, system_prompt, settings_json, created_at, updated_at),
//      messages(seq, id, conversation_id -> conversations ON DELETE CASCADE, position, role,
//      content, prompt/completion tokens, tokens_per_second, finish_reason, created_at)
// The full-text index (FTS5, when Qt's SQLite has it) is not part of the history: it is derived
// data, created and rebuilt by ChatStore::open.
#include <QList>

#include "core/SchemaMigration.h"

namespace hearth::app {
QList<SchemaMigration> chatSchema();
}
