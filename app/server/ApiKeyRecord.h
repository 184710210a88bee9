#pragma once
// One API key as stored: never the key itself, only a salted SHA-256 of it.
// Invariants: keyId is the public 8-hex-digit part of the key (hk_<keyId>_<secret>), unique for
// ever; name is unique among keys that are not revoked; salt is 16 random bytes; hash =
// SHA-256(salt || whole key); limits of 0 mean "no limit".

#include <QByteArray>
#include <cstdint>
#include <optional>
#include <string>

namespace hearth::app::server {

struct ApiKeyLimits {
    int maxConcurrent = 0;        // requests at once
    int64_t tokensPerMinute = 0;  // prompt + completion tokens over the last 60 s
};

struct ApiKeyRecord {
    std::string keyId;
    std::string name;
    QByteArray salt, hash;
    int64_t createdAtMs = 0;
    std::optional<int64_t> revokedAtMs;
    ApiKeyLimits limits;
};

}  // namespace hearth::app::server
