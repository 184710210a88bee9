#pragma once
// API keys in server.sqlite: create (the key is shown once and never stored), list, revoke.
// Used by `hearth-cli keys` and, through ServerStore, by the server.
//
// Keys look like hk_<8 hex: key id>_<48 hex: 192-bit secret>. Keys are random, so a salted SHA-256
// is enough to make the stored table useless to a reader (no slow KDF needed for 192-bit secrets).
// Threading: like every Qt SQL user, one store on the thread that opened its connection.

#include <QSqlDatabase>
#include <string>
#include <vector>

#include "hearth/result.h"
#include "server/ApiKeyRecord.h"

namespace hearth::app::server {

class ApiKeyStore {
public:
    explicit ApiKeyStore(QSqlDatabase db) : db_(std::move(db)) {}

    struct Created {
        ApiKeyRecord record;
        std::string key;  // the only copy of the full key
    };
    // InvalidArgument for an empty/overlong name or one an active key already has.
    Result<Created> create(const std::string& name, ApiKeyLimits limits = {});
    Result<std::vector<ApiKeyRecord>> list(bool includeRevoked = true);
    // By name (active key) or key id. InvalidArgument when no active key matches.
    Status revoke(const std::string& nameOrKeyId);
    Result<int> activeCount();

    static QByteArray hashKey(const QByteArray& salt, const std::string& key);
    // The key id of a well-formed key, or "" (the authenticator's lookup step).
    static std::string keyIdOf(const std::string& key);

private:
    QSqlDatabase db_;
};

}  // namespace hearth::app::server
