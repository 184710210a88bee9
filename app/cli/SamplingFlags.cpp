#include "SamplingFlags.h"

#include <cstdlib>

namespace hearth::cli {

std::set<std::string> samplingValueOptions() {
    return {"n", "n-predict", "temp", "top-k", "top-p", "min-p", "repeat-penalty", "seed"};
}

std::string readSamplingFlags(CliArgs& args, GenerationRequest& r, int defaultMaxTokens) {
    auto& s = r.sampling;
    r.maxTokens = static_cast<int>(args.intOr("n-predict", "n", defaultMaxTokens));
    s.temperature = static_cast<float>(args.floatOr("temp", "", s.temperature));
    s.topK = static_cast<int>(args.intOr("top-k", "", s.topK));
    s.topP = static_cast<float>(args.floatOr("top-p", "", s.topP));
    s.minP = static_cast<float>(args.floatOr("min-p", "", s.minP));
    s.repeatPenalty = static_cast<float>(args.floatOr("repeat-penalty", "", s.repeatPenalty));
    if (auto seed = args.get("seed")) {
        char* end = nullptr;
        s.seed = std::strtoull(seed->c_str(), &end, 10);
        if (seed->empty() || *end) return "--seed expects a non-negative integer, got '" + *seed + "'";
    }
    r.ignoreEos = args.flag("ignore-eos");
    if (r.maxTokens < -1 || r.maxTokens == 0) return "-n must be a positive number of tokens (or -1: until the context ends)";
    if (s.temperature < 0) return "--temp must not be negative";
    if (s.topK < 0) return "--top-k must not be negative";
    if (s.topP <= 0 || s.topP > 1) return "--top-p must be in (0, 1]";
    if (s.minP < 0 || s.minP > 1) return "--min-p must be in [0, 1]";
    if (s.repeatPenalty <= 0) return "--repeat-penalty must be positive";
    return {};
}

}  // namespace hearth::cli
