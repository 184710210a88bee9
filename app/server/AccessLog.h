#pragma once
// The access_log table of server.sqlite: append batches (one transaction each), read the latest
// entries, drop old ones. One thread, like every Qt SQL user (ServerStore's thread in the server).

#include <QSqlDatabase>
#include <vector>

#include "hearth/result.h"
#include "server/AccessLogEntry.h"

namespace hearth::app::server {

class AccessLog {
public:
    explicit AccessLog(QSqlDatabase db) : db_(std::move(db)) {}

    Status append(const std::vector<AccessLogEntry>& entries);
    // Newest first.
    Result<std::vector<AccessLogEntry>> recent(int limit);
    Status pruneBefore(int64_t atMs);

private:
    QSqlDatabase db_;
};

}  // namespace hearth::app::server
