#include "server/UsageLimiter.h"

namespace hearth::app::server {

UsageLimiter::Slot::~Slot() { owner_->release(who_, tokens_); }

void UsageLimiter::expire(Caller& c, Clock::time_point now) {
    while (!c.window.empty() && now - c.window.front().first >= std::chrono::seconds(60)) {
        c.windowTokens -= c.window.front().second;
        c.window.pop_front();
    }
}

std::unique_ptr<UsageLimiter::Slot> UsageLimiter::acquire(const std::string& who, const ApiKeyLimits& limits,
                                                          ApiError& error, int& retryAfterSec) {
    std::lock_guard<std::mutex> lock(mutex_);
    Caller& c = callers_[who];
    const auto now = Clock::now();
    expire(c, now);
    if (limits.maxConcurrent > 0 && c.active >= limits.maxConcurrent) {
        error = ApiError::rateLimited("Too many concurrent requests for '" + who + "' (the limit is " +
                                          std::to_string(limits.maxConcurrent) + ")",
                                      "concurrency_limit_exceeded");
        retryAfterSec = 1;
        return nullptr;
    }
    if (limits.tokensPerMinute > 0 && c.windowTokens >= limits.tokensPerMinute) {
        error = ApiError::rateLimited("Token rate limit reached for '" + who + "' (" +
                                          std::to_string(limits.tokensPerMinute) + " tokens per minute)",
                                      "rate_limit_exceeded");
        const auto wait = std::chrono::seconds(60) - (now - c.window.front().first);
        retryAfterSec = std::max(1, static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(wait).count()) + 1);
        return nullptr;
    }
    ++c.active;
    return std::make_unique<Slot>(shared_from_this(), who);
}

void UsageLimiter::release(const std::string& who, int64_t tokens) {
    std::lock_guard<std::mutex> lock(mutex_);
    Caller& c = callers_[who];
    if (c.active > 0) --c.active;
    if (tokens > 0) {
        c.window.emplace_back(Clock::now(), tokens);
        c.windowTokens += tokens;
    }
    expire(c, Clock::now());
    if (c.active == 0 && c.window.empty()) callers_.erase(who);
}

int UsageLimiter::active(const std::string& who) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = callers_.find(who);
    return it == callers_.end() ? 0 : it->second.active;
}

int64_t UsageLimiter::tokensLastMinute(const std::string& who) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = callers_.find(who);
    if (it == callers_.end()) return 0;
    Caller copy = it->second;
    expire(copy, Clock::now());
    return copy.windowTokens;
}

}  // namespace hearth::app::server
