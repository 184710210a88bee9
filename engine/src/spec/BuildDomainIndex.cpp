// hearth/domain_index.h: the public entry point over DomainIndexBuilder.
#include <filesystem>

#include "hearth/domain_index.h"
#include "hearth/tokenizer.h"
#include "spec/DomainIndexBuilder.h"

namespace hearth {

Result<DomainIndexReport> buildDomainIndex(const DomainIndexParams& p) {
    if (p.inputs.empty()) return makeError(ErrorCode::InvalidArgument, "an index needs at least one file or folder");
    if (p.outputPath.empty()) return makeError(ErrorCode::InvalidArgument, "an index needs an output path");
    auto tok = Tokenizer::fromGguf(p.modelPath);
    HEARTH_TRY(tok);
    DomainIndexBuilder builder(*tok);
    builder.setMaxFileBytes(p.maxFileBytes);
    for (const auto& in : p.inputs) builder.addPath(in);
    auto sum = builder.build(p.outputPath, p.progress);
    HEARTH_TRY(sum);
    DomainIndexReport r;
    r.files = sum->files, r.skipped = sum->skipped, r.tokens = sum->tokens;
    std::error_code ec;
    r.bytes = std::filesystem::file_size(p.outputPath, ec);
    return r;
}

}  // namespace hearth
