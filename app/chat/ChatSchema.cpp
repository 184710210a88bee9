#include "chat/ChatSchema.h"

namespace hearth::app {

QList<SchemaMigration> chatSchema() {
    return {
        {1,
         {R"(CREATE TABLE conversations (
               id TEXT PRIMARY KEY,
               title TEXT NOT NULL,
               model TEXT NOT NULL DEFAULT '',
               system_prompt TEXT NOT NULL DEFAULT '',
               settings_json TEXT NOT NULL DEFAULT '{}',
               created_at INTEGER NOT NULL,
               updated_at INTEGER NOT NULL))",
          R"(CREATE TABLE messages (
               seq INTEGER PRIMARY KEY AUTOINCREMENT,
               id TEXT NOT NULL UNIQUE,
               conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
               position INTEGER NOT NULL,
               role TEXT NOT NULL,
               content TEXT NOT NULL,
               prompt_tokens INTEGER NOT NULL DEFAULT 0,
               completion_tokens INTEGER NOT NULL DEFAULT 0,
               tokens_per_second REAL NOT NULL DEFAULT 0,
               finish_reason TEXT NOT NULL DEFAULT '',
               created_at INTEGER NOT NULL,
               UNIQUE (conversation_id, position)))",
          "CREATE INDEX conversations_by_update ON conversations(updated_at)"}},
    };
}

}  // namespace hearth::app
