#pragma once
// A read-only memory map of a whole file.
//
// Invariants: data() points at size() readable bytes for the object's lifetime (nullptr when the
// file is empty); the map is private and read-only, so nothing here can change the file.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "hearth/result.h"

namespace hearth {

class MappedFile {
public:
    static Result<std::shared_ptr<MappedFile>> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return data_; }
    uint64_t size() const { return size_; }
    const std::string& path() const { return path_; }

    // Ask the kernel to read ahead / drop a byte range (advisory; errors ignored).
    void prefetch(uint64_t offset, uint64_t length) const;

private:
    MappedFile() = default;
    const uint8_t* data_ = nullptr;
    uint64_t size_ = 0;
    std::string path_;
};

}  // namespace hearth
