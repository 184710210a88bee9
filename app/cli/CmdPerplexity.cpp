// hearth-cli perplexity -m MODEL -f TEXT [-c 512] [--chunks N] [--threads N] [--json]
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CommandRegistry.h"
#include "hearth/perplexity.h"

namespace hearth::cli {
namespace {

bool report(int chunk, int chunks, double ppl, void*) {
    std::fprintf(stderr, "\r[%d/%d] ppl %.4f", chunk, chunks, ppl);
    if (chunk == chunks) std::fprintf(stderr, "\n");
    return true;
}

int runPerplexity(int argc, char** argv) {
    CliArgs args(argc, argv, 2, {"m", "model", "f", "file", "c", "ctx", "chunks", "threads", "t", "kv-type"});
    PerplexityParams p;
    auto model = args.get("model", "m");
    auto file = args.get("file", "f");
    p.context = static_cast<int>(args.intOr("ctx", "c", 512));
    p.chunks = static_cast<int>(args.intOr("chunks", "", -1));
    p.threads = static_cast<int>(args.intOr("threads", "t", 0));
    const std::string kv = args.getOr("kv-type", "", "f16");
    const bool json = args.flag("json");
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!model || !file) return fail("perplexity needs -m MODEL and -f TEXT", 2);
    if (auto t = parseKvDType(kv)) p.kvType = *t;
    else return fail("--kv-type must be f16, q8_0 or fp8", 2);
    std::ifstream in(*file, std::ios::binary);
    if (!in) return fail("cannot read '" + *file + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    p.text = ss.str();
    p.modelPath = *model;
    if (!json) p.progress = &report;
    auto r = computePerplexity(p);
    if (!r) return fail(r.error().toString());
    if (json) {
        nlohmann::json j{{"ppl", r->ppl}, {"ppl_stderr", r->ppl_stderr}, {"tokens_scored", r->tokensScored},
                         {"chunks", r->chunks}, {"seconds", r->seconds}};
        std::printf("%s\n", j.dump().c_str());
    } else {
        std::printf("perplexity: %.4f +/- %.4f over %lld tokens (%d chunks of %d), %.1f s\n", r->ppl, r->ppl_stderr,
                    static_cast<long long>(r->tokensScored), r->chunks, p.context, r->seconds);
    }
    return 0;
}

RegisterCommand reg("perplexity", "perplexity -m MODEL -f TEXT [-c 512] [--chunks N] [--json]  llama.cpp-compatible perplexity",
                    runPerplexity);

}  // namespace
}  // namespace hearth::cli
