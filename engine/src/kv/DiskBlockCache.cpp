#include "kv/DiskBlockCache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "kv/StableHasher.h"

namespace hearth {
namespace fs = std::filesystem;
namespace {

constexpr char kMagic[8] = {'H', 'E', 'A', 'R', 'T', 'H', 'K', 'V'};

struct Header {
    char magic[8];
    uint32_t version, headerBytes;
    uint64_t fpHi, fpLo, hashHi, hashLo, payloadBytes, checksum;
};
static_assert(sizeof(Header) == DiskBlockCache::kHeaderBytes);

bool parseHex(const std::string& s, Hash128& out) {
    if (s.size() != 32) return false;
    uint64_t parts[2] = {0, 0};
    for (size_t i = 0; i < 32; ++i) {
        const char c = s[i];
        int v;
        if (c >= '0' && c <= '9') v = c - '0';
        else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else return false;
        parts[i / 16] = (parts[i / 16] << 4) | static_cast<uint64_t>(v);
    }
    out = Hash128{parts[0], parts[1]};
    return true;
}

struct FileCloser {
    void operator()(FILE* f) const { if (f) std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

}  // namespace

DiskBlockCache::DiskBlockCache(std::string dir, const Hash128& fingerprint, uint64_t capBytes, uint64_t blockBytes)
    : dir_(std::move(dir)), fingerprint_(fingerprint), capBytes_(capBytes), blockBytes_(blockBytes) {}

Result<std::unique_ptr<DiskBlockCache>> DiskBlockCache::open(const std::string& dir, const Hash128& fingerprint,
                                                             uint64_t capBytes, uint64_t blockBytes) {
    if (dir.empty()) return makeError(ErrorCode::InvalidArgument, "disk cache: empty directory name");
    if (blockBytes == 0) return makeError(ErrorCode::InvalidArgument, "disk cache: zero block size");
    const std::string sub = (fs::path(dir) / fingerprint.hex()).string();
    std::error_code ec;
    fs::create_directories(sub, ec);
    if (ec || !fs::is_directory(sub, ec))
        return makeError(ErrorCode::IoError, "disk cache: cannot create directory '" + sub + "': " + ec.message());
    std::unique_ptr<DiskBlockCache> c(new DiskBlockCache(sub, fingerprint, capBytes, blockBytes));
    c->scan();
    return c;
}

std::string DiskBlockCache::pathOf(const Hash128& h) const { return dir_ + "/" + h.hex() + ".kvb"; }

void DiskBlockCache::scan() {
    struct Found {
        Hash128 hash;
        fs::file_time_type mtime;
    };
    std::vector<Found> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        std::error_code e2;
        if (!it->is_regular_file(e2)) continue;
        if (p.extension() == ".tmp") {  // an interrupted write
            fs::remove(p, e2);
            continue;
        }
        Hash128 h;
        if (p.extension() != ".kvb" || !parseHex(p.stem().string(), h)) continue;  // not ours: leave it
        bool ok = fs::file_size(p, e2) == kHeaderBytes + blockBytes_ && !e2;
        if (ok) {
            File f(std::fopen(p.c_str(), "rb"));
            Header hd{};
            ok = f && std::fread(&hd, sizeof hd, 1, f.get()) == 1 && !std::memcmp(hd.magic, kMagic, 8) &&
                 hd.version == kVersion && hd.headerBytes == kHeaderBytes && hd.fpHi == fingerprint_.hi &&
                 hd.fpLo == fingerprint_.lo && hd.hashHi == h.hi && hd.hashLo == h.lo &&
                 hd.payloadBytes == blockBytes_;
        }
        if (!ok) {
            ++rejected_;
            fs::remove(p, e2);
            continue;
        }
        found.push_back({h, it->last_write_time(e2)});
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.mtime < b.mtime; });
    for (const auto& f : found) add(f.hash);
    // A smaller cap than last time: trim the oldest.
    while (bytesUsed_ > capBytes_ && !lru_.empty()) drop(lru_.front());
}

void DiskBlockCache::add(const Hash128& h) {
    lru_.push_back(h);
    index_[h] = std::prev(lru_.end());
    bytesUsed_ += kHeaderBytes + blockBytes_;
}

void DiskBlockCache::drop(const Hash128& h) {
    auto it = index_.find(h);
    if (it == index_.end()) return;
    lru_.erase(it->second);
    index_.erase(it);
    bytesUsed_ -= kHeaderBytes + blockBytes_;
    std::error_code ec;
    fs::remove(pathOf(h), ec);
}

Status DiskBlockCache::write(const Hash128& h, const uint8_t* data) {
    if (contains(h)) return Status::success();
    const uint64_t fileBytes = kHeaderBytes + blockBytes_;
    if (fileBytes > capBytes_) return makeError(ErrorCode::OutOfMemory, "disk cache: a block is larger than the cap");
    while (bytesUsed_ + fileBytes > capBytes_ && !lru_.empty()) drop(lru_.front());

    Header hd{};
    std::memcpy(hd.magic, kMagic, 8);
    hd.version = kVersion;
    hd.headerBytes = kHeaderBytes;
    hd.fpHi = fingerprint_.hi;
    hd.fpLo = fingerprint_.lo;
    hd.hashHi = h.hi;
    hd.hashLo = h.lo;
    hd.payloadBytes = blockBytes_;
    hd.checksum = stableHash(data, blockBytes_, kChecksumSeed).lo;

    const std::string path = pathOf(h);
    const std::string tmp = path + ".tmp";
    {
        File f(std::fopen(tmp.c_str(), "wb"));
        bool ok = f && std::fwrite(&hd, sizeof hd, 1, f.get()) == 1 &&
                  std::fwrite(data, 1, blockBytes_, f.get()) == blockBytes_;
        if (f) ok = (std::fclose(f.release()) == 0) && ok;
        if (!ok) {
            std::error_code ec;
            fs::remove(tmp, ec);
            return makeError(ErrorCode::IoError, "disk cache: cannot write '" + tmp + "'");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return makeError(ErrorCode::IoError, "disk cache: cannot rename '" + tmp + "'");
    }
    add(h);
    return Status::success();
}

Status DiskBlockCache::read(const Hash128& h, uint8_t* dst) {
    auto it = index_.find(h);
    if (it == index_.end()) return makeError(ErrorCode::Internal, "disk cache: block " + h.hex() + " is not cached");
    const std::string path = pathOf(h);
    Header hd{};
    bool ok;
    {
        File f(std::fopen(path.c_str(), "rb"));
        ok = f && std::fread(&hd, sizeof hd, 1, f.get()) == 1 && std::fread(dst, 1, blockBytes_, f.get()) == blockBytes_;
        // Re-check the header: the file may have been replaced since it was indexed.
        ok = ok && !std::memcmp(hd.magic, kMagic, 8) && hd.version == kVersion && hd.fpHi == fingerprint_.hi &&
             hd.fpLo == fingerprint_.lo && hd.hashHi == h.hi && hd.hashLo == h.lo && hd.payloadBytes == blockBytes_ &&
             std::fgetc(f.get()) == EOF;
    }
    if (ok) ok = stableHash(dst, blockBytes_, kChecksumSeed).lo == hd.checksum;
    if (!ok) {
        ++rejected_;
        drop(h);
        return makeError(ErrorCode::Corrupt, "disk cache: '" + path + "' is corrupt or stale; ignored");
    }
    lru_.splice(lru_.end(), lru_, it->second);
    std::error_code ec;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // keeps LRU order across restarts
    return Status::success();
}

}  // namespace hearth
