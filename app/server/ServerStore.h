#pragma once
// The server's SQLite side on a thread of its own (Qt SQL connections belong to one thread): it
// keeps the KeyAuthenticator's key set in step with server.sqlite (reloaded every refresh
// interval, so keys created or revoked by `hearth-cli keys` apply while the server runs) and writes
// access-log entries in batches. HTTP workers only call log(), which never blocks on the disk.
//
// Invariants: open() returns only after the database opened (or failed) on the store thread; every
// entry given to log() before the destructor runs is written (the destructor flushes, then closes
// the connection on the store thread); a failing write is reported on stderr once per streak and
// never stops the server.

#include <QString>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "hearth/result.h"
#include "server/AccessLogEntry.h"
#include "server/KeyAuthenticator.h"

namespace hearth::app::server {

class ServerStore {
public:
    static Result<std::unique_ptr<ServerStore>> open(const QString& path, std::shared_ptr<KeyAuthenticator> auth,
                                                    int refreshMs = 1000);
    ~ServerStore();
    ServerStore(const ServerStore&) = delete;
    ServerStore& operator=(const ServerStore&) = delete;

    void log(AccessLogEntry entry);
    // Number of active keys in the database at the last refresh.
    int storedKeys() const;

private:
    ServerStore(QString path, std::shared_ptr<KeyAuthenticator> auth, int refreshMs);
    void run(std::shared_ptr<std::promise<Status>> opened);

    QString path_;
    std::shared_ptr<KeyAuthenticator> auth_;
    int refreshMs_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<AccessLogEntry> pending_;
    bool stop_ = false;
    int storedKeys_ = 0;
    std::thread thread_;
};

}  // namespace hearth::app::server
