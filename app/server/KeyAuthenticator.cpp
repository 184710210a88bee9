#include "server/KeyAuthenticator.h"

#include <QRandomGenerator>

#include "server/ApiKeyStore.h"

namespace hearth::app::server {

KeyAuthenticator::KeyAuthenticator() : fileSalt_(16, '\0') {
    QRandomGenerator::system()->generate(reinterpret_cast<quint32*>(fileSalt_.data()),
                                         reinterpret_cast<quint32*>(fileSalt_.data()) + 4);
}

bool KeyAuthenticator::constantTimeEqual(const QByteArray& a, const QByteArray& b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

void KeyAuthenticator::setStoredKeys(const std::vector<ApiKeyRecord>& activeKeys) {
    std::map<std::string, ApiKeyRecord> next;
    for (const auto& k : activeKeys)
        if (!k.revokedAtMs) next[k.keyId] = k;
    std::lock_guard<std::mutex> lock(mutex_);
    stored_ = std::move(next);
}

void KeyAuthenticator::setFileKeys(const std::vector<std::string>& keys, ApiKeyLimits limits) {
    std::vector<FileKey> next;
    for (size_t i = 0; i < keys.size(); ++i)
        next.push_back({ApiKeyStore::hashKey(fileSalt_, keys[i]), "file-key-" + std::to_string(i + 1)});
    std::lock_guard<std::mutex> lock(mutex_);
    fileKeys_ = std::move(next);
    fileLimits_ = limits;
}

std::optional<CallerIdentity> KeyAuthenticator::authenticate(const std::string& key) const {
    if (key.empty()) return std::nullopt;
    std::optional<ApiKeyRecord> record;
    std::vector<FileKey> fileKeys;
    ApiKeyLimits fileLimits;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (const std::string id = ApiKeyStore::keyIdOf(key); !id.empty())
            if (auto it = stored_.find(id); it != stored_.end()) record = it->second;
        fileKeys = fileKeys_;
        fileLimits = fileLimits_;
    }
    if (record && constantTimeEqual(ApiKeyStore::hashKey(record->salt, key), record->hash))
        return CallerIdentity{record->name, record->limits};
    const QByteArray h = ApiKeyStore::hashKey(fileSalt_, key);
    std::optional<CallerIdentity> match;
    for (const auto& f : fileKeys)  // every entry is compared: no early exit
        if (constantTimeEqual(h, f.hash) && !match) match = CallerIdentity{f.name, fileLimits};
    return match;
}

size_t KeyAuthenticator::keyCount() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stored_.size() + fileKeys_.size();
}

}  // namespace hearth::app::server
