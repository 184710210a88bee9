// hearth-cli index build --model MODEL --out PATH FOLDER|FILE...
//   Builds a domain n-gram index for `--spec index:PATH`: every text file under the folders
//   (hidden, VCS, build and dependency folders skipped), tokenized with MODEL's tokenizer.
//   Progress on stderr; Ctrl-C cancels and leaves no file behind.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CommandRegistry.h"
#include "hearth/domain_index.h"

namespace hearth::cli {
namespace {

std::atomic<bool> gInterrupted{false};

const char* phaseName(IndexBuildProgress::Phase p) {
    switch (p) {
        case IndexBuildProgress::Phase::Scanning: return "scanning";
        case IndexBuildProgress::Phase::Tokenizing: return "tokenizing";
        case IndexBuildProgress::Phase::Sorting: return "sorting";
        case IndexBuildProgress::Phase::Writing: return "writing";
    }
    return "?";
}

int runIndexBuild(int argc, char** argv) {
    CliArgs args(argc, argv, 3, {"m", "model", "o", "out", "max-file-kib"});
    DomainIndexParams p;
    const auto model = args.get("model", "m");
    const auto out = args.get("out", "o");
    const long long maxKiB = args.intOr("max-file-kib", "", 4096);
    const bool quiet = args.flag("quiet", "q");
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!model || !out) return fail("index build needs --model MODEL and --out PATH", 2);
    if (args.positionals().empty()) return fail("index build needs at least one folder or file to index", 2);
    if (maxKiB < 1) return fail("--max-file-kib must be positive", 2);
    p.modelPath = *model;
    p.outputPath = *out;
    p.inputs = args.positionals();
    p.maxFileBytes = static_cast<uint64_t>(maxKiB) << 10;
    const bool tty = isatty(STDERR_FILENO);
    std::signal(SIGINT, [](int) { gInterrupted = true; });
    p.progress = [&](const IndexBuildProgress& pr) {
        if (!quiet) {
            std::fprintf(stderr, "%s%-10s %llu/%llu, %llu tokens%s", tty ? "\r" : "", phaseName(pr.phase),
                         static_cast<unsigned long long>(pr.done), static_cast<unsigned long long>(pr.total),
                         static_cast<unsigned long long>(pr.tokens), tty ? "   " : "\n");
            std::fflush(stderr);
        }
        return !gInterrupted.load();
    };
    auto r = buildDomainIndex(p);
    if (!quiet && tty) std::fprintf(stderr, "\n");
    if (!r) return fail(r.error().toString(), r.error().code == ErrorCode::Cancelled ? 130 : 1);
    nlohmann::json j = {{"index", *out},   {"files", r->files}, {"skipped", r->skipped},
                        {"tokens", r->tokens}, {"bytes", r->bytes}};
    std::printf("%s\n", j.dump().c_str());
    return 0;
}

int runIndex(int argc, char** argv) {
    const std::string sub = argc > 2 ? argv[2] : "";
    if (sub == "build") return runIndexBuild(argc, argv);
    return fail("usage: hearth-cli index build --model MODEL --out PATH FOLDER|FILE...", 2);
}

RegisterCommand reg("index",
                    "index build --model MODEL --out PATH FOLDER... [--max-file-kib N]   domain n-gram index for --spec index:PATH",
                    runIndex);

}  // namespace
}  // namespace hearth::cli
