#include "server/ServerConfig.h"

namespace hearth::app::server {

bool isLoopbackHost(const std::string& host) {
    if (host == "localhost" || host == "::1" || host == "[::1]") return true;
    return host.rfind("127.", 0) == 0;
}

}  // namespace hearth::app::server
