#include "runtime/ModelFingerprint.h"

#include <cstdio>
#include <memory>
#include <vector>

#include "kv/StableHasher.h"

namespace hearth {

Result<Hash128> ModelFingerprint::compute(const std::string& modelPath, const std::string& backendName, KvDType dtype,
                                          uint64_t blockBytes) {
    struct Closer {
        void operator()(FILE* f) const { std::fclose(f); }
    };
    std::unique_ptr<FILE, Closer> f(std::fopen(modelPath.c_str(), "rb"));
    if (!f) return makeError(ErrorCode::IoError, "cannot open '" + modelPath + "' to fingerprint it");
    if (std::fseek(f.get(), 0, SEEK_END) != 0) return makeError(ErrorCode::IoError, "cannot seek in '" + modelPath + "'");
    const long size = std::ftell(f.get());
    if (size < 0) return makeError(ErrorCode::IoError, "cannot size '" + modelPath + "'");

    constexpr long kChunk = 1 << 20;
    StableHasher h(0x66696e6765727031ull);
    h.addU64(static_cast<uint64_t>(size));
    std::vector<uint8_t> buf(kChunk);
    auto hashRange = [&](long offset) -> bool {
        const long n = std::min(kChunk, size - offset);
        if (n <= 0) return true;
        if (std::fseek(f.get(), offset, SEEK_SET) != 0) return false;
        if (std::fread(buf.data(), 1, static_cast<size_t>(n), f.get()) != static_cast<size_t>(n)) return false;
        h.addBytes(buf.data(), static_cast<size_t>(n));
        return true;
    };
    if (!hashRange(0) || !hashRange(std::max(0L, size - kChunk)))
        return makeError(ErrorCode::IoError, "cannot read '" + modelPath + "' to fingerprint it");
    h.addString(backendName);
    h.addU64(static_cast<uint64_t>(dtype));
    h.addU64(blockBytes);
    return h.digest();
}

}  // namespace hearth
