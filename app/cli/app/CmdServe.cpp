// hearth-cli serve: the OpenAI/Ollama-compatible API server in front of one model.
//   serve -m MODEL [--host 127.0.0.1] [--port 8080] [--api-key-file F] [--parallel N] [--db FILE]
//         [--cors ORIGIN[,ORIGIN...]] [--max-body-mb N] [--model-id ID] [--require-key]
//         [--key-concurrency N] [--key-tpm N] [--max-in-flight N] [engine flags as in run]
// Prints "listening on http://HOST:PORT" once bound (--port 0 picks a free port), loads the model
// (GET /health says "loading" meanwhile), prints "ready", and serves until SIGINT/SIGTERM.
#include <QCoreApplication>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <pthread.h>

#include "../CliArgs.h"
#include "../CommandRegistry.h"
#include "../EngineFlags.h"
#include "host/EngineBackend.h"
#include "server/ApiServer.h"
#include "server/ServerSchema.h"
#include "server/ServerStore.h"

namespace hearth::cli {
namespace {

using namespace hearth::app::server;

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        const size_t comma = std::min(s.find(',', pos), s.size());
        if (comma > pos) out.push_back(s.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return out;
}

// One key per line; blank lines and lines starting with '#' are skipped.
std::string readKeyFile(const std::string& path, std::vector<std::string>& keys) {
    std::ifstream in(path);
    if (!in) return "cannot read the API key file '" + path + "'";
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
        size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#') continue;
        keys.push_back(line.substr(start));
    }
    if (keys.empty()) return "the API key file '" + path + "' holds no keys";
    return {};
}

bool reportProgress(float progress, void* user) {
    static_cast<ApiServer*>(user)->setLoading(progress);
    return true;
}

int runServe(int argc, char** argv) {
    // Block the stop signals before any thread starts, so that every thread inherits the mask and
    // the main thread alone receives them (sigwait below).
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    int qtArgc = 1;
    QCoreApplication app(qtArgc, argv);  // Qt SQL and the settings paths need one
    QCoreApplication::setOrganizationName("Hearth");
    QCoreApplication::setApplicationName("hearth");

    auto valueOpts = engineValueOptions();
    valueOpts.insert({"m", "model", "host", "port", "api-key-file", "parallel", "db", "cors", "max-body-mb", "model-id",
                      "key-concurrency", "key-tpm", "max-in-flight"});
    CliArgs args(argc, argv, 2, valueOpts);
    EngineConfig engineConfig;
    const auto model = args.get("model", "m");
    ServerConfig cfg;
    cfg.host = args.getOr("host", "", cfg.host);
    const long long port = args.intOr("port", "", cfg.port);
    const auto keyFile = args.get("api-key-file");
    const long long parallel = args.intOr("parallel", "", -1);
    const std::string dbPath = args.getOr("db", "", "");
    const std::string cors = args.getOr("cors", "", "");
    const double bodyMb = args.floatOr("max-body-mb", "", static_cast<double>(cfg.maxBodyBytes) / (1 << 20));
    cfg.modelId = args.getOr("model-id", "", "");
    cfg.requireKey = args.flag("require-key");
    ApiKeyLimits fileKeyLimits;
    fileKeyLimits.maxConcurrent = static_cast<int>(args.intOr("key-concurrency", "", 0));
    fileKeyLimits.tokensPerMinute = args.intOr("key-tpm", "", 0);
    const long long maxInFlight = args.intOr("max-in-flight", "", -1);
    if (auto e = readEngineFlags(args, engineConfig); !e.empty()) return fail(e, 2);
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!model) return fail("serve needs -m MODEL", 2);
    if (port < 0 || port > 65535) return fail("--port must be between 0 and 65535", 2);
    if (parallel == 0 || parallel < -1 || parallel > 4096) return fail("--parallel must be between 1 and 4096", 2);
    if (!(bodyMb > 0) || bodyMb > 1024) return fail("--max-body-mb must be between 0 and 1024", 2);
    if (fileKeyLimits.maxConcurrent < 0 || fileKeyLimits.tokensPerMinute < 0) return fail("key limits must not be negative", 2);
    engineConfig.modelPath = *model;
    if (parallel > 0) engineConfig.maxSeqs = static_cast<int>(parallel);
    cfg.port = static_cast<int>(port);
    cfg.allowedOrigins = splitList(cors);
    cfg.maxBodyBytes = static_cast<size_t>(bodyMb * (1 << 20));
    cfg.maxInFlight = maxInFlight > 0 ? static_cast<int>(maxInFlight) : 2 * engineConfig.maxSeqs + 32;

    auto auth = std::make_shared<KeyAuthenticator>();
    if (keyFile) {
        std::vector<std::string> keys;
        if (auto e = readKeyFile(*keyFile, keys); !e.empty()) return fail(e, 2);
        auth->setFileKeys(keys, fileKeyLimits);
    }
    const QString db = dbPath.empty() ? defaultServerDatabasePath() : QString::fromStdString(dbPath);
    auto store = ServerStore::open(db, auth);
    if (!store) return fail("cannot open the server database " + db.toStdString() + ": " + store.error().toString());
    std::shared_ptr<ServerStore> sharedStore = std::move(*store);

    ApiServer server(cfg, auth, [sharedStore](const AccessLogEntry& e) { sharedStore->log(e); });
    if (Status st = server.start(); !st.ok()) return fail(st.error().message);
    std::printf("listening on http://%s:%d\n", cfg.host.find(':') != std::string::npos ? ("[" + cfg.host + "]").c_str()
                                                                                        : cfg.host.c_str(),
                server.port());
    std::fflush(stdout);

    auto engine = Engine::create(engineConfig, &reportProgress, &server);
    if (!engine) {
        server.setLoadFailed(engine.error().message);
        server.stop();
        return fail(engine.error().toString());
    }
    server.setModel(std::make_shared<app::EngineBackend>(std::move(*engine)));
    if (!server.context().model()->templateWarning().empty())
        std::fprintf(stderr, "warning: %s\n", server.context().model()->templateWarning().c_str());
    std::printf("ready: serving %s\n", server.context().model()->id().c_str());
    std::fflush(stdout);

    int sig = 0;
    sigwait(&stopSignals, &sig);
    std::fprintf(stderr, "stopping (signal %d)\n", sig);
    server.stop();
    return 0;
}

RegisterCommand reg("serve",
                    "serve -m MODEL [--host H] [--port P] [--api-key-file F] [--parallel N] [--db FILE] [--cors ORIGINS]  "
                    "OpenAI/Ollama API server",
                    runServe);

}  // namespace
}  // namespace hearth::cli
