#include "hearth/perplexity.h"

#include <chrono>
#include <cmath>

#include "cpu/CpuBackend.h"
#include "hearth/tokenizer.h"

namespace hearth {

Result<PerplexityResult> computePerplexity(const PerplexityParams& p) {
    const auto t0 = std::chrono::steady_clock::now();
    if (p.context < 8) return makeError(ErrorCode::InvalidArgument, "perplexity context must be at least 8 tokens");
    auto tok = Tokenizer::fromGguf(p.modelPath);
    if (!tok) return tok.error();
    auto backend = cpu::CpuBackend::open(p.modelPath, p.threads);
    if (!backend) return backend.error();
    auto& be = **backend;
    const int32_t nVocab = static_cast<int32_t>(be.vocabSize());
    const int32_t n = p.context;
    const int32_t blocks = (n + kBlockSize - 1) / kBlockSize;
    HEARTH_TRY(be.allocateKv(blocks, p.kvType));

    const std::vector<TokenId> tokens = (*tok)->encode(p.text, TokenizeOptions{true, false});
    int total = static_cast<int>(tokens.size() / n);
    if (total == 0)
        return makeError(ErrorCode::InvalidArgument, "the text has " + std::to_string(tokens.size()) +
                                                         " tokens, fewer than one chunk of " + std::to_string(n));
    if (p.chunks >= 0 && p.chunks < total) total = p.chunks;

    std::vector<int32_t> table(blocks);
    for (int32_t i = 0; i < blocks; ++i) table[i] = i;
    const int32_t first = n / 2;
    double nll = 0, nll2 = 0;
    int64_t count = 0;
    std::vector<float> logits;
    for (int c = 0; c < total; ++c) {
        std::vector<TokenId> chunk(tokens.begin() + static_cast<int64_t>(c) * n, tokens.begin() + static_cast<int64_t>(c + 1) * n);
        if ((*tok)->addsBos() && (*tok)->bos() >= 0) chunk[0] = (*tok)->bos();
        ForwardBatch b;
        b.addSequence(chunk, 0, table, false, false);
        for (int32_t j = first; j < n - 1; ++j) b.logitRows.push_back(j);
        HEARTH_TRY(be.forward(b, logits));
        for (int32_t r = 0; r < n - 1 - first; ++r) {
            const float* l = logits.data() + static_cast<int64_t>(r) * nVocab;
            float mx = -INFINITY;
            for (int32_t v = 0; v < nVocab; ++v) mx = std::max(mx, l[v]);
            double sum = 0;
            for (int32_t v = 0; v < nVocab; ++v) sum += std::exp(static_cast<double>(l[v] - mx));
            const TokenId target = tokens[static_cast<int64_t>(c) * n + first + r + 1];
            const double x = -(static_cast<double>(l[target] - mx) - std::log(sum));
            nll += x;
            nll2 += x * x;
            ++count;
        }
        if (p.progress && !p.progress(c + 1, total, std::exp(nll / count), p.progressUser))
            return makeError(ErrorCode::Cancelled, "perplexity cancelled");
    }
    PerplexityResult res;
    res.tokensScored = count;
    res.chunks = total;
    const double mean = nll / count;
    res.ppl = std::exp(mean);
    const double var = std::max(0.0, nll2 / count - mean * mean);
    res.ppl_stderr = res.ppl * std::sqrt(var / std::max<int64_t>(1, count - 1));
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

}  // namespace hearth
