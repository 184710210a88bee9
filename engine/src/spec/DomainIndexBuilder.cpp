#include "spec/DomainIndexBuilder.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <unistd.h>

#include "spec/DomainIndex.h"
#include "spec/IndexFormat.h"

namespace hearth {

using namespace index_format;
namespace fs = std::filesystem;

namespace {

bool skippedDir(const fs::path& p) {
    const std::string n = p.filename().string();
    static const char* kSkip[] = {"node_modules", "build", "dist", "target", "__pycache__", "venv", ".venv"};
    if (!n.empty() && n[0] == '.') return true;
    for (const char* s : kSkip)
        if (n == s) return true;
    return false;
}

bool validUtf8(const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > s.size()) return false;
        for (int k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        i += len;
    }
    return true;
}

}  // namespace

DomainIndexBuilder::DomainIndexBuilder(std::shared_ptr<const Tokenizer> tokenizer, uint32_t sortDepth)
    : tok_(std::move(tokenizer)), sortDepth_(std::clamp<uint32_t>(sortDepth, 2, 64)) {}

Result<DomainIndexBuilder::Summary> DomainIndexBuilder::build(const std::string& outPath, const ProgressFn& progress) {
    Summary sum;
    IndexBuildProgress pr{IndexBuildProgress::Phase::Scanning};
    auto report = [&]() { return !progress || progress(pr); };
    auto cancelled = []() { return makeError(ErrorCode::Cancelled, "index build cancelled"); };

    std::vector<fs::path> files;
    for (const auto& root : paths_) {
        std::error_code ec;
        const fs::path rp(root);
        if (fs::is_regular_file(rp, ec)) {
            files.push_back(rp);
            continue;
        }
        if (!fs::is_directory(rp, ec)) return makeError(ErrorCode::IoError, "'" + root + "' is not a file or folder");
        fs::recursive_directory_iterator it(rp, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) return makeError(ErrorCode::IoError, "cannot read folder '" + root + "': " + ec.message());
        for (; it != end; it.increment(ec)) {
            if (ec) break;
            if (it->is_directory(ec) && skippedDir(it->path())) {
                it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file(ec)) files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());  // stable, reproducible order
    pr.phase = IndexBuildProgress::Phase::Tokenizing;
    pr.total = files.size();
    if (!report()) return cancelled();

    std::vector<int32_t> tokens;
    for (const auto& f : files) {
        std::error_code ec;
        const auto size = fs::file_size(f, ec);
        ++pr.done;
        if (ec || size > maxFileBytes_ || size == 0) {
            ++sum.skipped;
            continue;
        }
        std::ifstream in(f, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        if (text.find('\0') != std::string::npos || !validUtf8(text)) {
            ++sum.skipped;
            continue;
        }
        const auto ids = tok_->encode(text, TokenizeOptions{false, false});
        tokens.insert(tokens.end(), ids.begin(), ids.end());
        tokens.push_back(-1);
        ++sum.files;
        sum.bytes += text.size();
        pr.tokens = tokens.size();
        if (!report()) return cancelled();
    }
    if (tokens.size() >= (1ull << 32) - 1)
        return makeError(ErrorCode::InvalidArgument, "the corpus has more than 4 billion tokens; index a smaller folder");

    pr.phase = IndexBuildProgress::Phase::Sorting;
    std::vector<uint32_t> suffixes;
    suffixes.reserve(tokens.size());
    for (uint32_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] >= 0) suffixes.push_back(i);
    pr.done = 0;
    pr.total = suffixes.size();
    if (!report()) return cancelled();
    const int32_t* tp = tokens.data();
    const uint64_t n = tokens.size();
    const uint32_t depth = sortDepth_;
    std::stable_sort(suffixes.begin(), suffixes.end(),
                     [&](uint32_t a, uint32_t b) { return compareRuns(tp, n, a, b, depth) < 0; });
    pr.done = pr.total;
    if (!report()) return cancelled();

    pr.phase = IndexBuildProgress::Phase::Writing;
    std::vector<uint8_t> header(kHeaderBytes);
    std::memcpy(header.data(), kMagic, 8);
    const uint32_t version = DomainIndex::kVersion;
    const uint64_t fp = tok_->fingerprint(), nt = tokens.size(), ns = suffixes.size(), nf = sum.files;
    std::memcpy(header.data() + 8, &version, 4);
    std::memcpy(header.data() + 12, &depth, 4);
    std::memcpy(header.data() + 16, &fp, 8);
    std::memcpy(header.data() + 24, &nt, 8);
    std::memcpy(header.data() + 32, &ns, 8);
    std::memcpy(header.data() + 40, &nf, 8);
    uint64_t h = fnv1a(header.data(), header.size());
    h = fnv1a(reinterpret_cast<const uint8_t*>(tokens.data()), 4 * nt, h);
    h = fnv1a(reinterpret_cast<const uint8_t*>(suffixes.data()), 4 * ns, h);

    const std::string tmp = outPath + ".tmp";
    FILE* out = std::fopen(tmp.c_str(), "wb");
    if (!out) return makeError(ErrorCode::IoError, "cannot create '" + tmp + "': " + std::strerror(errno));
    bool ok = std::fwrite(header.data(), 1, header.size(), out) == header.size() &&
              std::fwrite(tokens.data(), 4, nt, out) == nt && std::fwrite(suffixes.data(), 4, ns, out) == ns &&
              std::fwrite(&h, 8, 1, out) == 1 && std::fflush(out) == 0 && ::fsync(fileno(out)) == 0;
    const int err = errno;
    ok = (std::fclose(out) == 0) && ok;
    if (!ok) {
        std::remove(tmp.c_str());
        return makeError(ErrorCode::IoError, "cannot write '" + tmp + "': " + std::strerror(err));
    }
    if (std::rename(tmp.c_str(), outPath.c_str()) != 0) {
        std::remove(tmp.c_str());
        return makeError(ErrorCode::IoError, "cannot rename '" + tmp + "' to '" + outPath + "'");
    }
    sum.tokens = nt - sum.files;
    pr.done = pr.total = header.size() + 4 * (nt + ns) + 8;
    report();
    return sum;
}

}  // namespace hearth
