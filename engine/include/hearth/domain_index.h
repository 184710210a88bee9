#pragma once
// Building a domain n-gram index for speculative decoding (SpecMethod::Index): every text file
// under the given folders, tokenized with the model's tokenizer, stored as a memory-mappable file
// that records the tokenizer's hash (an engine with another tokenizer refuses it). The file
// appears at outputPath only when complete; a failure or a cancel leaves nothing behind.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hearth/result.h"

namespace hearth {

struct IndexBuildProgress {
    enum class Phase { Scanning, Tokenizing, Sorting, Writing } phase;
    uint64_t done = 0, total = 0;  // files while tokenizing; suffixes while sorting; bytes while writing
    uint64_t tokens = 0;
};

struct DomainIndexParams {
    std::string modelPath;            // the GGUF whose tokenizer the index is for
    std::string outputPath;
    std::vector<std::string> inputs;  // files or folders (walked recursively)
    uint64_t maxFileBytes = 4u << 20; // larger files are skipped
    // Called as the build advances; returning false cancels (the result is Cancelled).
    std::function<bool(const IndexBuildProgress&)> progress;
};

struct DomainIndexReport {
    uint64_t files = 0, skipped = 0, tokens = 0, bytes = 0;  // bytes: the index file's size
};

Result<DomainIndexReport> buildDomainIndex(const DomainIndexParams& params);

}  // namespace hearth
