#include "EngineFlags.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace hearth::cli {

std::set<std::string> engineValueOptions() {
    return {"ctx",      "kv-type",       "ram-cache", "disk-cache", "disk-cache-size", "max-seqs", "batch-tokens",
            "prefill-chunk", "threads", "t",         "devices",    "split",           "cpu-layers",
            "spec",     "spec-max",      "spec-ngram", "spec-off-above", "chat-template"};
}

namespace {

// "1,2,3" -> numbers; false on anything else.
template <class T>
bool parseList(const std::string& s, std::vector<T>& out) {
    size_t pos = 0;
    while (pos <= s.size()) {
        const size_t comma = std::min(s.find(',', pos), s.size());
        const std::string item = s.substr(pos, comma - pos);
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0') return false;
        out.push_back(static_cast<T>(v));
        pos = comma + 1;
    }
    return !out.empty();
}

}  // namespace

std::string readEngineFlags(CliArgs& args, EngineConfig& c) {
    const long long ctx = args.intOr("ctx", "", c.contextLength);
    const long long threads = args.intOr("threads", "t", c.threads);
    const long long ram = args.intOr("ram-cache", "", -1);
    const long long diskMiB = args.intOr("disk-cache-size", "", -1);
    const long long maxSeqs = args.intOr("max-seqs", "", c.maxSeqs);
    const long long batch = args.intOr("batch-tokens", "", c.maxBatchTokens);
    const long long chunk = args.intOr("prefill-chunk", "", c.prefillChunk);
    if (auto d = args.get("disk-cache")) c.diskCacheDir = *d;
    const long long cpuLayers = args.intOr("cpu-layers", "", c.placement.cpuLayers);
    if (auto d = args.get("devices")) {
        std::vector<double> v;
        if (!parseList(*d, v)) return "--devices is a comma-separated list of CUDA device numbers, got '" + *d + "'";
        c.placement.devices.clear();
        for (double x : v) {
            if (x < 0 || x != static_cast<int>(x)) return "--devices: '" + *d + "' is not a list of device numbers";
            c.placement.devices.push_back(static_cast<int>(x));
        }
    }
    if (auto sp = args.get("split")) {
        c.placement.split.clear();
        if (!parseList(*sp, c.placement.split)) return "--split is a comma-separated list of layer shares, got '" + *sp + "'";
        for (float x : c.placement.split)
            if (!(x >= 0)) return "--split shares must not be negative";
    }
    if (cpuLayers < 0 || cpuLayers > 100000) return "--cpu-layers must not be negative";
    c.placement.cpuLayers = static_cast<int>(cpuLayers);
    if (args.flag("no-prefix-cache")) c.prefixCaching = false;
    if (args.flag("batch-invariant")) c.batchInvariant = true;
    if (auto kv = args.get("kv-type")) {
        // fp8 is CUDA only: the CPU backend refuses it with its reason.
        if (auto t = parseKvDType(*kv)) c.kvType = *t;
        else return "--kv-type must be f16, q8_0 or fp8, got '" + *kv + "'";
    }
    if (auto t = args.get("chat-template")) {
        std::ifstream in(*t, std::ios::binary);
        if (!in) return "--chat-template: cannot read '" + *t + "'";
        std::ostringstream text;
        text << in.rdbuf();
        if (text.str().empty()) return "--chat-template: '" + *t + "' is empty";
        c.chatTemplateOverride = text.str();
    }
    if (auto sp = args.get("spec")) {
        const std::string v = *sp;
        c.spec.path.clear();
        if (v == "off" || v == "none") c.spec.method = SpecMethod::None;
        else if (v == "ngram") c.spec.method = SpecMethod::NGram;
        else if (v.rfind("index:", 0) == 0) c.spec.method = SpecMethod::Index, c.spec.path = v.substr(6);
        else if (v.rfind("draft:", 0) == 0) c.spec.method = SpecMethod::Draft, c.spec.path = v.substr(6);
        else return "--spec is ngram, index:PATH or draft:MODEL, got '" + v + "'";
        if ((c.spec.method == SpecMethod::Index || c.spec.method == SpecMethod::Draft) && c.spec.path.empty())
            return "--spec " + v + " needs a file after the colon";
    }
    if (args.flag("spec-fixed")) c.spec.adaptive = false;
    const long long specMax = args.intOr("spec-max", "", c.spec.maxDraft);
    if (specMax < 1 || specMax > 64) return "--spec-max must be between 1 and 64";
    c.spec.maxDraft = static_cast<int>(specMax);
    if (auto ng = args.get("spec-ngram")) {
        std::vector<double> v;
        if (!parseList(*ng, v) || v.size() != 2 || v[0] < 1 || v[1] < v[0] || v[1] > 64)
            return "--spec-ngram is MIN,MAX (1 <= MIN <= MAX <= 64), got '" + *ng + "'";
        c.spec.minNgram = static_cast<int>(v[0]);
        c.spec.maxNgram = static_cast<int>(v[1]);
    }
    const long long offAbove = args.intOr("spec-off-above", "", c.spec.disableAboveBatch);
    if (offAbove < 1 || offAbove > 4096) return "--spec-off-above must be between 1 and 4096";
    c.spec.disableAboveBatch = static_cast<int>(offAbove);
    if (ctx < 0 || ctx > (1 << 24)) return "--ctx must be between 0 (the model's) and 16777216";
    if (threads < 0 || threads > 1024) return "--threads must be between 0 (all cores) and 1024";
    if (maxSeqs < 1 || maxSeqs > 4096) return "--max-seqs must be between 1 and 4096";
    if (batch < 1 || batch > (1 << 20)) return "--batch-tokens must be between 1 and 1048576";
    if (chunk < 1 || chunk > (1 << 20)) return "--prefill-chunk must be between 1 and 1048576";
    if (ram < -1 || ram > (1ll << 30)) return "--ram-cache is a size in MiB";
    if (diskMiB < -1 || diskMiB > (1ll << 30)) return "--disk-cache-size is a size in MiB";
    c.contextLength = static_cast<int>(ctx);
    c.threads = static_cast<int>(threads);
    c.maxSeqs = static_cast<int>(maxSeqs);
    c.maxBatchTokens = static_cast<int>(batch);
    c.prefillChunk = static_cast<int>(chunk);
    if (ram >= 0) c.ramCacheBytes = static_cast<uint64_t>(ram) << 20;
    if (diskMiB >= 0) c.diskCacheBytes = static_cast<uint64_t>(diskMiB) << 20;
    return {};
}

}  // namespace hearth::cli
