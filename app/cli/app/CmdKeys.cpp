// hearth-cli keys: the API server's keys, in the same database `serve` uses.
//   keys create NAME [--concurrency N] [--tpm N] [--db FILE]   prints the new key (shown only once)
//   keys list [--json] [--db FILE]
//   keys revoke NAME|KEY_ID [--db FILE]
#include <QCoreApplication>
#include <QDateTime>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "../CliArgs.h"
#include "../CommandRegistry.h"
#include "core/Database.h"
#include "server/ApiKeyStore.h"
#include "server/ServerSchema.h"

namespace hearth::cli {
namespace {

using namespace hearth::app;
using namespace hearth::app::server;

std::string when(int64_t ms) {
    return QDateTime::fromMSecsSinceEpoch(ms).toString("yyyy-MM-dd HH:mm").toStdString();
}

int runKeys(int argc, char** argv) {
    int qtArgc = 1;
    QCoreApplication app(qtArgc, argv);
    QCoreApplication::setOrganizationName("Hearth");
    QCoreApplication::setApplicationName("hearth");
    CliArgs args(argc, argv, 2, {"db", "concurrency", "tpm"});
    const std::string dbPath = args.getOr("db", "", "");
    const long long concurrency = args.intOr("concurrency", "", 0);
    const long long tpm = args.intOr("tpm", "", 0);
    const bool asJson = args.flag("json");
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    const auto& pos = args.positionals();
    if (pos.empty()) return fail("keys needs create NAME, list or revoke NAME", 2);
    const std::string action = pos[0];
    if ((action == "create" || action == "revoke") && pos.size() != 2)
        return fail("keys " + action + " needs exactly one NAME", 2);
    if (action == "list" && pos.size() != 1) return fail("keys list takes no arguments", 2);
    if (action != "create" && action != "list" && action != "revoke") return fail("unknown keys action '" + action + "'", 2);
    if (concurrency < 0 || tpm < 0) return fail("limits must not be negative", 2);

    const QString path = dbPath.empty() ? defaultServerDatabasePath() : QString::fromStdString(dbPath);
    const QString connection = Database::uniqueConnectionName("hearth-cli-keys");
    int rc = 0;
    {
        auto db = Database::open(path, connection, serverSchema());
        if (!db) return fail("cannot open " + path.toStdString() + ": " + db.error().toString());
        ApiKeyStore store(*db);
        if (action == "create") {
            ApiKeyLimits limits;
            limits.maxConcurrent = static_cast<int>(concurrency);
            limits.tokensPerMinute = tpm;
            auto created = store.create(pos[1], limits);
            if (!created) {
                rc = fail(created.error().message);
            } else if (asJson) {
                std::printf("%s\n", nlohmann::json({{"name", created->record.name}, {"id", created->record.keyId},
                                                    {"key", created->key}}).dump().c_str());
            } else {
                std::printf("%s\n", created->key.c_str());
                std::fprintf(stderr, "created key '%s' (id %s). Store it now: it is not shown again.\n",
                             created->record.name.c_str(), created->record.keyId.c_str());
            }
        } else if (action == "revoke") {
            if (Status st = store.revoke(pos[1]); !st.ok()) rc = fail(st.error().message);
            else std::fprintf(stderr, "revoked '%s'\n", pos[1].c_str());
        } else {
            auto keys = store.list(true);
            if (!keys) {
                rc = fail(keys.error().toString());
            } else if (asJson) {
                nlohmann::json list = nlohmann::json::array();
                for (const auto& k : *keys)
                    list.push_back({{"id", k.keyId},
                                    {"name", k.name},
                                    {"created_at_ms", k.createdAtMs},
                                    {"revoked", k.revokedAtMs.has_value()},
                                    {"max_concurrent", k.limits.maxConcurrent},
                                    {"tokens_per_minute", k.limits.tokensPerMinute}});
                std::printf("%s\n", list.dump().c_str());
            } else {
                std::printf("%-10s %-24s %-17s %-8s %-10s %s\n", "ID", "NAME", "CREATED", "STATUS", "CONCURRENT", "TOKENS/MIN");
                for (const auto& k : *keys)
                    std::printf("%-10s %-24s %-17s %-8s %-10d %lld\n", k.keyId.c_str(), k.name.c_str(),
                                when(k.createdAtMs).c_str(), k.revokedAtMs ? "revoked" : "active", k.limits.maxConcurrent,
                                static_cast<long long>(k.limits.tokensPerMinute));
            }
        }
        db->close();
    }
    Database::close(connection);
    return rc;
}

RegisterCommand reg("keys", "keys create NAME | list | revoke NAME [--db FILE]   API keys of `serve`", runKeys);

}  // namespace
}  // namespace hearth::cli
