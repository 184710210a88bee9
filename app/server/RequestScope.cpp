#include "server/RequestScope.h"

#include <QDateTime>

#include "server/ServerContext.h"

namespace hearth::app::server {

RequestScope::RequestScope(ServerContext& ctx, std::string method, std::string path, std::string client, bool isOllama)
    : context(ctx), ollama(isOllama) {
    entry.atMs = QDateTime::currentMSecsSinceEpoch();
    entry.method = std::move(method);
    entry.path = std::move(path);
    entry.client = std::move(client);
    entry.keyName = "anonymous";
}

RequestScope::~RequestScope() {
    entry.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (slot) slot->setTokens(static_cast<int64_t>(entry.promptTokens) + entry.completionTokens);
    slot.reset();
    if (inFlight) context.releaseInFlight();
    context.record(*this);
}

std::string RequestScope::fairnessKey(const std::string& user) const {
    if (caller) return "key:" + caller->name;
    if (!user.empty()) return "user:" + user;
    return "client:" + entry.client;
}

}  // namespace hearth::app::server
