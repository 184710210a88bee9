#pragma once
// Why a hub request failed, as a value the UI can show and act on (401/403: ask for a token).
// Invariant: httpStatus is set (>= 400) exactly when kind == Http.
#include <QString>

namespace hearth::app {

struct HubError {
    enum class Kind { InvalidInput, Network, Timeout, Http, BadResponse, Cancelled };
    Kind kind = Kind::Network;
    int httpStatus = 0;
    QString message;

    bool needsToken() const { return kind == Kind::Http && (httpStatus == 401 || httpStatus == 403); }
};

}  // namespace hearth::app
