#pragma once
// Identity of "this model's KV bytes": cached KV blocks on disk are only valid for the same model
// file, the same backend layout and the same KV dtype. The fingerprint hashes the file size, its
// first and last MiB (the GGUF header with all metadata and tensor offsets, and trailing weights),
// the backend name, the dtype and the block size, so a re-quantized, retrained or truncated file,
// or another backend's layout, gets a different one. (Hashing whole multi-GB files at every load
// would cost seconds; a same-size file differing only in its middle weights is not detected.)

#include <cstdint>
#include <string>

#include "hearth/engine.h"
#include "hearth/result.h"
#include "kv/Hash128.h"

namespace hearth {

class ModelFingerprint {
public:
    static Result<Hash128> compute(const std::string& modelPath, const std::string& backendName, KvDType dtype,
                                   uint64_t blockBytes);
};

}  // namespace hearth
