#pragma once
// Per-caller limits: requests at once and tokens per minute (prompt + completion, over a sliding
// 60-second window). Thread-safe; every HTTP worker asks it before generating.
//
// Invariants: a Slot is held while its request runs and releases itself once (recording the tokens
// the request used); active(who) equals the number of live slots for `who`; window entries older
// than 60 s are dropped before any check.

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "server/ApiError.h"
#include "server/ApiKeyRecord.h"

namespace hearth::app::server {

class UsageLimiter : public std::enable_shared_from_this<UsageLimiter> {
public:
    using Clock = std::chrono::steady_clock;

    class Slot {
    public:
        Slot(std::shared_ptr<UsageLimiter> owner, std::string who) : owner_(std::move(owner)), who_(std::move(who)) {}
        ~Slot();
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        void setTokens(int64_t tokens) { tokens_ = tokens; }

    private:
        std::shared_ptr<UsageLimiter> owner_;
        std::string who_;
        int64_t tokens_ = 0;
    };

    // A slot, or the 429 that says which limit was hit (and when to retry, in retryAfterSec).
    std::unique_ptr<Slot> acquire(const std::string& who, const ApiKeyLimits& limits, ApiError& error, int& retryAfterSec);
    int active(const std::string& who) const;
    int64_t tokensLastMinute(const std::string& who) const;

private:
    struct Caller {
        int active = 0;
        std::deque<std::pair<Clock::time_point, int64_t>> window;
        int64_t windowTokens = 0;
    };
    void release(const std::string& who, int64_t tokens);
    static void expire(Caller& c, Clock::time_point now);

    mutable std::mutex mutex_;
    std::map<std::string, Caller> callers_;
};

}  // namespace hearth::app::server
