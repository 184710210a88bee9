#pragma once
// Random-weight GGUF models with real shapes, for speed measurements (weight values do not change
// how fast a forward pass runs). Blocks are random bytes with their scale fields set to small
// values, so activations stay finite; norms are ones, biases zeros. Written directly in the target
// type (no quantizer needed), with llama.cpp's Q4_K_M tensor mix (Q6_K for the output and for
// attn_v / ffn_down in the "more bits" layers) and its fallbacks where a row is not a multiple
// of 256 (Q5_0 for Q4_K, Q8_0 for Q6_K).
#include <cstdint>
#include <string>

#include "hearth/result.h"

namespace hearth::bench {

struct ModelShape {
    std::string name, arch;
    uint32_t layers, embd, heads, kvHeads, ffn, vocab, ctx;
    float ropeBase;
    bool qkvBias, tiedOutput;
};

// "llama8b" (Llama-3.1-8B with a 32k vocabulary), "qwen05b" (Qwen2.5-0.5B), "qwen7b" (Qwen2.5-7B).
Result<ModelShape> shapeByName(const std::string& name);

// mix: "f16", "q8_0", "q4_k_m", "q6_k", "q5_k_m". Returns the bytes written.
Result<uint64_t> writeRandomModel(const ModelShape& shape, const std::string& mix, const std::string& path, int threads);

}  // namespace hearth::bench
