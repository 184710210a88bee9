#pragma once
// Builds a DomainIndex file from folders and files: tokenizes every text file with the model's
// tokenizer, sorts the suffixes, writes the file atomically (PATH.tmp, then rename).
//
// Invariants: what is written always satisfies DomainIndex's invariants; a cancelled or failed
// build leaves no file under the final path.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hearth/domain_index.h"
#include "hearth/result.h"
#include "hearth/tokenizer.h"

namespace hearth {

class DomainIndexBuilder {
public:
    // Return false from the callback to cancel.
    using ProgressFn = std::function<bool(const IndexBuildProgress&)>;

    explicit DomainIndexBuilder(std::shared_ptr<const Tokenizer> tokenizer, uint32_t sortDepth = 8);

    // Files or folders; folders are walked recursively, skipping hidden entries, VCS/build/dependency
    // folders and files that are not text (NUL bytes, invalid UTF-8) or larger than maxFileBytes.
    void addPath(const std::string& path) { paths_.push_back(path); }
    void setMaxFileBytes(uint64_t n) { maxFileBytes_ = n; }

    struct Summary {
        uint64_t files = 0, skipped = 0, tokens = 0, bytes = 0;
    };
    Result<Summary> build(const std::string& outPath, const ProgressFn& progress = {});

private:
    std::shared_ptr<const Tokenizer> tok_;
    uint32_t sortDepth_;
    uint64_t maxFileBytes_ = 4u << 20;
    std::vector<std::string> paths_;
};

}  // namespace hearth
