#pragma once
// Checks API keys presented by clients, in memory, from any HTTP worker thread. Its key set is
// refreshed by ServerStore from server.sqlite (so `hearth-cli keys revoke` takes effect within a
// second) and can include keys read from a file (--api-key-file).
//
// Invariants: plain keys are never kept: stored keys as their salted hash, file keys hashed with a
// per-process random salt; comparisons of hashes are constant-time; authenticate() is safe to call
// concurrently with the refresh (one mutex, held only to copy the matching record).

#include <QByteArray>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/ApiKeyRecord.h"

namespace hearth::app::server {

struct CallerIdentity {
    std::string name;  // the key's name; "file-key-N" for file keys
    ApiKeyLimits limits;
};

class KeyAuthenticator {
public:
    KeyAuthenticator();

    void setStoredKeys(const std::vector<ApiKeyRecord>& activeKeys);
    void setFileKeys(const std::vector<std::string>& keys, ApiKeyLimits limits);
    std::optional<CallerIdentity> authenticate(const std::string& key) const;
    size_t keyCount() const;

    static bool constantTimeEqual(const QByteArray& a, const QByteArray& b);

private:
    struct FileKey {
        QByteArray hash;
        std::string name;
    };
    mutable std::mutex mutex_;
    std::map<std::string, ApiKeyRecord> stored_;  // by key id
    std::vector<FileKey> fileKeys_;
    ApiKeyLimits fileLimits_;
    QByteArray fileSalt_;
};

}  // namespace hearth::app::server
