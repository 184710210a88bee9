// hearth-cli quantize IN.gguf OUT.gguf TYPE [--threads N]: write a quantized copy of a model
// (llama.cpp's mix names: Q4_K_M, Q8_0, ...), with progress on stderr.
#include <cstdio>
#include <string>

#include "CliArgs.h"
#include "CommandRegistry.h"
#include "hearth/quantize.h"

namespace hearth::cli {
namespace {

std::string dimsText(const std::vector<uint64_t>& d) {
    std::string s = "[";
    for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s + "]";
}

int runQuantize(int argc, char** argv) {
    CliArgs args(argc, argv, 2, {"threads", "t"});
    const long long threads = args.intOr("threads", "t", 0);
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    const auto& pos = args.positionals();
    if (pos.size() != 3) {
        std::string mixes;
        for (const auto& m : quantizeMixNames()) mixes += " " + m;
        return fail("usage: hearth-cli quantize IN.gguf OUT.gguf TYPE [--threads N]\n  TYPE:" + mixes, 2);
    }
    QuantizeParams p;
    p.inputPath = pos[0];
    p.outputPath = pos[1];
    p.mix = pos[2];
    p.threads = static_cast<int>(threads);
    p.progress = [](const QuantizeProgress& q) {
        std::fprintf(stderr, "[%4zu/%4zu] %-36s %-6s -> %-6s %s\n", q.index + 1, q.count, q.name.c_str(),
                     q.fromType.c_str(), q.toType.c_str(), dimsText(q.dims).c_str());
        return true;
    };
    auto r = quantizeModel(p);
    if (!r) return fail(r.error().toString());
    std::string types;
    for (const auto& [t, n] : r->typeCounts) types += " " + t + ":" + std::to_string(n);
    std::fprintf(stderr, "wrote %s: %.2f MiB -> %.2f MiB, %zu tensors (%zu converted), types%s\n", p.outputPath.c_str(),
                 static_cast<double>(r->inputBytes) / (1 << 20), static_cast<double>(r->outputBytes) / (1 << 20), r->tensors,
                 r->converted, types.c_str());
    return 0;
}

RegisterCommand reg("quantize", "quantize IN.gguf OUT.gguf TYPE [--threads N]   write a quantized copy (Q4_K_M, Q8_0, ...)",
                    runQuantize);

}  // namespace
}  // namespace hearth::cli
