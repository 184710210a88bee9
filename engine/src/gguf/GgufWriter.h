#pragma once
// Writes a GGUF v3 file: metadata, tensor infos, aligned tensor data.
//
// Invariants: keys and tensor names are unique (add fails otherwise); tensor data is written in
// the order tensors were added, each at an offset that is a multiple of the alignment; the output
// appears at its path only when complete (written to PATH.tmp, flushed, then renamed), so a full
// disk or a crash never leaves a half-written model under the final name.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/TensorType.h"
#include "gguf/GgufValue.h"
#include "hearth/result.h"

namespace hearth {

class GgufWriter {
public:
    // Produces a tensor's bytes into `out` (exactly byteSize bytes) when the writer reaches it, so
    // large models are written without holding every converted tensor in memory at once.
    using DataSource = std::function<Status(std::vector<uint8_t>& out)>;

    explicit GgufWriter(uint32_t alignment = 32) : alignment_(alignment) {}

    Status setMetadata(const std::string& key, GgufValue value);  // replaces an existing key
    Status addTensor(const std::string& name, TensorType type, std::vector<uint64_t> dims, DataSource source);
    Status addTensor(const std::string& name, TensorType type, std::vector<uint64_t> dims, std::vector<uint8_t> bytes);

    Status write(const std::string& path) const;

    // Serialize the header (magic .. tensor infos, padded) only; used by tests to build hostile files.
    std::vector<uint8_t> headerBytes() const;

private:
    struct Tensor {
        std::string name;
        TensorType type;
        std::vector<uint64_t> dims;
        uint64_t byteSize;
        uint64_t offset;
        DataSource source;
    };
    uint32_t alignment_;
    std::vector<std::pair<std::string, GgufValue>> kv_;
    std::vector<Tensor> tensors_;
    uint64_t dataSize_ = 0;
};

}  // namespace hearth
