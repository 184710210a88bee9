#pragma once
// A parsed GGUF file (v2 or v3), memory-mapped.
//
// Invariants once open() succeeds: every tensor's [offset, offset + byteSize) lies inside the file
// and starts on the file's alignment; every tensor's shape has 1..4 dims, each > 0, whose product and
// byte size did not overflow, and ne[0] is a multiple of its type's block size; tensor and key names
// are unique. Nothing the file claims is trusted before it is checked against the file's size.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/MappedFile.h"
#include "core/TensorType.h"
#include "gguf/GgufValue.h"
#include "hearth/result.h"

namespace hearth {

struct GgufTensorInfo {
    std::string name;
    TensorType type = TensorType::F32;
    std::vector<uint64_t> dims;  // ggml order: dims[0] is the contiguous (row) dimension
    uint64_t offset = 0;         // from the start of the file (already includes the data section)
    uint64_t byteSize = 0;
    uint64_t elements() const;
    uint64_t rows() const;       // product of dims[1..]
};

class GgufFile {
public:
    static Result<std::shared_ptr<GgufFile>> open(const std::string& path);
    // Parse an in-memory buffer (fuzzing, tests). The buffer must outlive the object.
    static Result<std::shared_ptr<GgufFile>> parse(const uint8_t* data, uint64_t size, std::string name = "<memory>");

    uint32_t version() const { return version_; }
    uint32_t alignment() const { return alignment_; }
    uint64_t dataOffset() const { return dataOffset_; }
    const std::string& path() const { return name_; }
    uint64_t fileSize() const { return size_; }

    // Metadata in file order; find() by key.
    const std::vector<std::pair<std::string, GgufValue>>& metadata() const { return kv_; }
    const GgufValue* find(const std::string& key) const;

    // Typed getters that name the key in the error (MissingKey / BadKeyType).
    Result<std::string> getString(const std::string& key) const;
    Result<uint64_t> getU64(const std::string& key) const;  // any non-negative integer type
    Result<double> getF64(const std::string& key) const;    // any numeric type
    Result<bool> getBool(const std::string& key) const;
    std::string getStringOr(const std::string& key, std::string fallback) const;
    uint64_t getU64Or(const std::string& key, uint64_t fallback) const;
    double getF64Or(const std::string& key, double fallback) const;
    bool getBoolOr(const std::string& key, bool fallback) const;

    const std::vector<GgufTensorInfo>& tensors() const { return tensors_; }
    const GgufTensorInfo* findTensor(const std::string& name) const;
    const uint8_t* tensorData(const GgufTensorInfo& t) const { return base_ + t.offset; }
    const uint8_t* base() const { return base_; }
    const MappedFile* mapping() const { return map_.get(); }

private:
    GgufFile() = default;
    Status parseAll();

    std::shared_ptr<MappedFile> map_;
    const uint8_t* base_ = nullptr;
    uint64_t size_ = 0;
    std::string name_;
    uint32_t version_ = 0;
    uint32_t alignment_ = 32;
    uint64_t dataOffset_ = 0;
    std::vector<std::pair<std::string, GgufValue>> kv_;
    std::map<std::string, size_t> kvIndex_;
    std::vector<GgufTensorInfo> tensors_;
    std::map<std::string, size_t> tensorIndex_;
};

}  // namespace hearth
