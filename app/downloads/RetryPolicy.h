#pragma once
// How the download worker retries network errors and 5xx answers: exponential backoff,
// initialDelayMs x 2^(attempt-1), capped at maxDelayMs, at most maxAttempts tries per run.
// transferTimeoutMs: a transfer with no data for this long is a network error.
#include <QMetaType>

namespace hearth::app {

struct RetryPolicy {
    int maxAttempts = 6;
    int initialDelayMs = 1000;
    int maxDelayMs = 60000;
    int transferTimeoutMs = 30000;

    int delayBeforeAttempt(int attempt) const {  // attempt 2, 3, ... (the first has no delay)
        long long d = initialDelayMs;
        for (int i = 2; i < attempt && d < maxDelayMs; ++i) d *= 2;
        return int(d < maxDelayMs ? d : maxDelayMs);
    }
};

}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::app::RetryPolicy)
