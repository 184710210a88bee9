#include "host/TokenRelay.h"

namespace hearth::app {

std::shared_ptr<TokenRelay> TokenRelay::create() {
    return std::shared_ptr<TokenRelay>(new TokenRelay, [](TokenRelay* r) { r->deleteLater(); });
}

}  // namespace hearth::app
