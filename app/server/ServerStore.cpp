#include "server/ServerStore.h"

#include <chrono>
#include <cstdio>

#include "core/Database.h"
#include "server/AccessLog.h"
#include "server/ApiKeyStore.h"
#include "server/ServerSchema.h"

namespace hearth::app::server {

ServerStore::ServerStore(QString path, std::shared_ptr<KeyAuthenticator> auth, int refreshMs)
    : path_(std::move(path)), auth_(std::move(auth)), refreshMs_(refreshMs) {}

Result<std::unique_ptr<ServerStore>> ServerStore::open(const QString& path, std::shared_ptr<KeyAuthenticator> auth,
                                                       int refreshMs) {
    std::unique_ptr<ServerStore> store(new ServerStore(path, std::move(auth), refreshMs));
    auto opened = std::make_shared<std::promise<Status>>();
    auto result = opened->get_future();
    store->thread_ = std::thread([s = store.get(), opened] { s->run(opened); });
    Status st = result.get();
    if (!st.ok()) return st.error();  // the thread has already ended; the destructor joins it
    return store;
}

ServerStore::~ServerStore() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ServerStore::log(AccessLogEntry entry) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_.push_back(std::move(entry));
    }
    wake_.notify_one();
}

int ServerStore::storedKeys() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return storedKeys_;
}

void ServerStore::run(std::shared_ptr<std::promise<Status>> opened) {
    const QString connection = Database::uniqueConnectionName("hearth-server-store");
    auto db = Database::open(path_, connection, serverSchema());
    if (!db) {
        opened->set_value(db.error());
        return;
    }
    {
        ApiKeyStore keys(*db);
        AccessLog log(*db);
        bool reported = false;
        auto lastRefresh = std::chrono::steady_clock::now();
        auto refresh = [&] {
            lastRefresh = std::chrono::steady_clock::now();
            auto active = keys.list(false);
            if (!active) return;
            auth_->setStoredKeys(*active);
            std::lock_guard<std::mutex> lock(mutex_);
            storedKeys_ = static_cast<int>(active->size());
        };
        refresh();
        opened->set_value(Status::success());
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            wake_.wait_for(lock, std::chrono::milliseconds(refreshMs_), [&] { return stop_ || !pending_.empty(); });
            std::vector<AccessLogEntry> batch;
            batch.swap(pending_);
            const bool stopping = stop_;
            lock.unlock();
            if (Status st = log.append(batch); !st.ok()) {
                if (!reported) std::fprintf(stderr, "hearth: access log: %s\n", st.error().toString().c_str());
                reported = true;
            } else {
                reported = false;
            }
            if (std::chrono::steady_clock::now() - lastRefresh >= std::chrono::milliseconds(refreshMs_)) refresh();
            lock.lock();
            if (stopping && pending_.empty()) break;
        }
    }
    db->close();
    *db = QSqlDatabase();
    Database::close(connection);
}

}  // namespace hearth::app::server
