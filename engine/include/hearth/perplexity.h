#pragma once
// Perplexity of a model on a text, computed the way llama.cpp's llama-perplexity does so the two
// compare directly: the text is tokenized once (BOS as the model's metadata asks), split into
// chunks of `context` tokens (the first token of each chunk replaced by BOS when the model adds
// one), each chunk evaluated from an empty cache, and only the second half of each chunk scored
// (each position predicting the next token).

#include <cstdint>
#include <string>

#include "hearth/engine.h"
#include "hearth/result.h"

namespace hearth {

struct PerplexityParams {
    std::string modelPath;
    std::string text;
    int context = 512;
    int chunks = -1;  // -1: all full chunks
    int threads = 0;
    KvDType kvType = KvDType::F16;
    // Called after each chunk with the running perplexity; return false to cancel.
    bool (*progress)(int chunk, int chunks, double ppl, void* user) = nullptr;
    void* progressUser = nullptr;
};

struct PerplexityResult {
    double ppl = 0;
    double ppl_stderr = 0;  // from the per-token NLL spread, as llama.cpp reports "+/-"
    int64_t tokensScored = 0;
    int chunks = 0;
    double seconds = 0;
};

Result<PerplexityResult> computePerplexity(const PerplexityParams& params);

}  // namespace hearth
