#include "RandomModel.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "core/Half.h"
#include "core/TensorType.h"
#include "gguf/GgufWriter.h"

namespace hearth::bench {
namespace {

uint64_t mix64(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27; x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void putHalf(uint8_t* p, float v) {
    const f16_t h = f32ToF16(v);
    std::memcpy(p, &h, 2);
}

// Fills one tensor of `rows` rows, in parallel, block by block.
void fill(TensorType t, uint64_t cols, uint64_t rows, uint64_t seed, std::vector<uint8_t>& out, int threads) {
    const auto tr = traits(t);
    const uint64_t blocks = cols / tr.blockSize * rows;
    out.resize(blocks * tr.typeSize);
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w)
        pool.emplace_back([&, w] {
            const uint64_t b0 = blocks * w / threads, b1 = blocks * (w + 1) / threads;
            uint64_t s = mix64(seed + w * 0x9E3779B97F4A7C15ull);
            for (uint64_t b = b0; b < b1; ++b) {
                uint8_t* p = out.data() + b * tr.typeSize;
                for (uint32_t i = 0; i < tr.typeSize; i += 8) {
                    s = mix64(s + 0x9E3779B97F4A7C15ull);
                    std::memcpy(p + i, &s, std::min<uint32_t>(8, tr.typeSize - i));
                }
                switch (t) {
                    case TensorType::F16:  // keep the sign and mantissa, force a small exponent
                        for (uint32_t i = 0; i < tr.typeSize; i += 2) {
                            uint16_t h;
                            std::memcpy(&h, p + i, 2);
                            h = static_cast<uint16_t>((h & 0x83FFu) | 0x2000u);  // +-[2^-7, 2^-6)
                            std::memcpy(p + i, &h, 2);
                        }
                        break;
                    case TensorType::Q8_0: putHalf(p, 1.2e-4f); break;
                    case TensorType::Q5_0: putHalf(p, 1.0e-3f); break;
                    case TensorType::Q4_K: case TensorType::Q5_K: putHalf(p, 2e-5f); putHalf(p + 2, 2e-5f); break;
                    case TensorType::Q6_K: putHalf(p + 208, 5e-6f); break;
                    default: break;
                }
            }
        });
    for (auto& th : pool) th.join();
}

std::vector<uint8_t> constant(uint64_t n, float v) {
    std::vector<uint8_t> b(n * 4);
    for (uint64_t i = 0; i < n; ++i) std::memcpy(b.data() + 4 * i, &v, 4);
    return b;
}

}  // namespace

Result<ModelShape> shapeByName(const std::string& n) {
    if (n == "llama8b") return ModelShape{n, "llama", 32, 4096, 32, 8, 14336, 32000, 8192, 500000.f, false, false};
    if (n == "qwen05b") return ModelShape{n, "qwen2", 24, 896, 14, 2, 4864, 151936, 32768, 1000000.f, true, true};
    if (n == "qwen7b") return ModelShape{n, "qwen2", 28, 3584, 28, 4, 18944, 152064, 32768, 1000000.f, true, false};
    return makeError(ErrorCode::InvalidArgument, "unknown shape '" + n + "' (llama8b, qwen05b, qwen7b)");
}

Result<uint64_t> writeRandomModel(const ModelShape& s, const std::string& mix, const std::string& path, int threads) {
    if (mix != "f16" && mix != "q8_0" && mix != "q4_k_m" && mix != "q6_k" && mix != "q5_k_m")
        return makeError(ErrorCode::InvalidArgument, "unknown mix '" + mix + "' (f16, q8_0, q4_k_m, q5_k_m, q6_k)");
    auto pick = [&](const std::string& role, uint32_t layer, uint64_t cols) {
        TensorType t = TensorType::F16;
        if (mix == "q8_0") t = TensorType::Q8_0;
        if (mix == "q6_k") t = TensorType::Q6_K;
        if (mix == "q4_k_m" || mix == "q5_k_m") {
            const bool moreBits = layer < s.layers / 8 || layer >= 7 * s.layers / 8 || (layer - s.layers / 8) % 3 == 2;
            t = mix == "q4_k_m" ? TensorType::Q4_K : TensorType::Q5_K;
            if (role == "output" || ((role == "attn_v" || role == "ffn_down") && moreBits)) t = TensorType::Q6_K;
        }
        if (cols % 256 != 0) {
            if (t == TensorType::Q4_K || t == TensorType::Q5_K) t = TensorType::Q5_0;
            if (t == TensorType::Q6_K) t = TensorType::Q8_0;
        }
        return t;
    };
    const uint64_t E = s.embd, D = s.embd / s.heads, Q = D * s.heads, KV = D * s.kvHeads, F = s.ffn, V = s.vocab;
    GgufWriter w;
    const std::string a = s.arch + ".";
    HEARTH_TRY(w.setMetadata("general.architecture", GgufValue::string(s.arch)));
    HEARTH_TRY(w.setMetadata("general.name", GgufValue::string("random " + s.name + " " + mix)));
    HEARTH_TRY(w.setMetadata(a + "block_count", GgufValue::u32(s.layers)));
    HEARTH_TRY(w.setMetadata(a + "embedding_length", GgufValue::u32(s.embd)));
    HEARTH_TRY(w.setMetadata(a + "feed_forward_length", GgufValue::u32(s.ffn)));
    HEARTH_TRY(w.setMetadata(a + "attention.head_count", GgufValue::u32(s.heads)));
    HEARTH_TRY(w.setMetadata(a + "attention.head_count_kv", GgufValue::u32(s.kvHeads)));
    HEARTH_TRY(w.setMetadata(a + "context_length", GgufValue::u32(s.ctx)));
    HEARTH_TRY(w.setMetadata(a + "vocab_size", GgufValue::u32(s.vocab)));
    HEARTH_TRY(w.setMetadata(a + "rope.freq_base", GgufValue::f32(s.ropeBase)));
    HEARTH_TRY(w.setMetadata(a + "attention.layer_norm_rms_epsilon", GgufValue::f32(1e-5f)));
    uint64_t seed = 1;
    auto matrix = [&](const std::string& name, TensorType t, uint64_t cols, uint64_t rows) {
        const uint64_t sd = seed++;
        return w.addTensor(name, t, {cols, rows}, [=](std::vector<uint8_t>& out) {
            fill(t, cols, rows, sd, out, threads);
            return Status::success();
        });
    };
    auto vec = [&](const std::string& name, uint64_t n, float v) { return w.addTensor(name, TensorType::F32, {n}, constant(n, v)); };
    HEARTH_TRY(matrix("token_embd.weight", pick("token_embd", 0, E), E, V));
    HEARTH_TRY(vec("output_norm.weight", E, 1.0f));
    if (!s.tiedOutput) HEARTH_TRY(matrix("output.weight", pick("output", 0, E), E, V));
    for (uint32_t l = 0; l < s.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        HEARTH_TRY(vec(p + "attn_norm.weight", E, 1.0f));
        HEARTH_TRY(vec(p + "ffn_norm.weight", E, 1.0f));
        HEARTH_TRY(matrix(p + "attn_q.weight", pick("attn_q", l, E), E, Q));
        HEARTH_TRY(matrix(p + "attn_k.weight", pick("attn_k", l, E), E, KV));
        HEARTH_TRY(matrix(p + "attn_v.weight", pick("attn_v", l, E), E, KV));
        HEARTH_TRY(matrix(p + "attn_output.weight", pick("attn_output", l, Q), Q, E));
        if (s.qkvBias) {
            HEARTH_TRY(vec(p + "attn_q.bias", Q, 0.0f));
            HEARTH_TRY(vec(p + "attn_k.bias", KV, 0.0f));
            HEARTH_TRY(vec(p + "attn_v.bias", KV, 0.0f));
        }
        HEARTH_TRY(matrix(p + "ffn_gate.weight", pick("ffn_gate", l, E), E, F));
        HEARTH_TRY(matrix(p + "ffn_up.weight", pick("ffn_up", l, E), E, F));
        HEARTH_TRY(matrix(p + "ffn_down.weight", pick("ffn_down", l, F), F, E));
    }
    HEARTH_TRY(w.write(path));
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return makeError(ErrorCode::IoError, "cannot reopen " + path);
    std::fseek(f, 0, SEEK_END);
    const uint64_t n = static_cast<uint64_t>(std::ftell(f));
    std::fclose(f);
    return n;
}

}  // namespace hearth::bench
