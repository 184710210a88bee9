#include "quant/QuantMix.h"

#include <array>
#include <cctype>

namespace hearth::quant {
namespace {

struct MixDef {
    std::string_view name;
    uint32_t fileType;  // llama.cpp's LLAMA_FTYPE_* values, as general.file_type stores them
    TensorType base;
};

constexpr std::array<MixDef, 17> kMixes{{
    {"F32", 0, TensorType::F32},      {"F16", 1, TensorType::F16},       {"BF16", 32, TensorType::BF16},
    {"Q8_0", 7, TensorType::Q8_0},    {"Q4_0", 2, TensorType::Q4_0},     {"Q4_1", 3, TensorType::Q4_1},
    {"Q5_0", 8, TensorType::Q5_0},    {"Q5_1", 9, TensorType::Q5_1},     {"Q2_K", 10, TensorType::Q2_K},
    {"Q3_K_S", 11, TensorType::Q3_K}, {"Q3_K_M", 12, TensorType::Q3_K},  {"Q3_K_L", 13, TensorType::Q3_K},
    {"Q4_K_S", 14, TensorType::Q4_K}, {"Q4_K_M", 15, TensorType::Q4_K},  {"Q5_K_S", 16, TensorType::Q5_K},
    {"Q5_K_M", 17, TensorType::Q5_K}, {"Q6_K", 18, TensorType::Q6_K},
}};

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// llama.cpp spends extra bits on the first and last eighth of the layers and every third one between.
bool useMoreBits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

// A 32-element type for rows whose length is not a multiple of 256.
TensorType smallBlockFallback(TensorType t) {
    switch (t) {
        case TensorType::Q2_K: case TensorType::Q3_K: return TensorType::Q4_0;
        case TensorType::Q4_K: return TensorType::Q5_0;
        case TensorType::Q5_K: return TensorType::Q5_1;
        case TensorType::Q6_K: return TensorType::Q8_0;
        default: return t;
    }
}

}  // namespace

Result<QuantMix> QuantMix::fromName(std::string_view name) {
    for (const auto& m : kMixes) {
        bool eq = m.name.size() == name.size();
        for (size_t i = 0; eq && i < name.size(); ++i)
            eq = std::toupper(static_cast<unsigned char>(name[i])) == m.name[i];
        if (eq) {
            QuantMix q;
            q.name_ = std::string(m.name), q.fileType_ = m.fileType, q.base_ = m.base;
            return q;
        }
    }
    std::string all;
    for (const auto& m : kMixes) all += (all.empty() ? "" : ", ") + std::string(m.name);
    return makeError(ErrorCode::InvalidArgument, "unknown quantization type '" + std::string(name) + "' (one of " + all + ")");
}

std::vector<std::string> QuantMix::names() {
    std::vector<std::string> v;
    for (const auto& m : kMixes) v.emplace_back(m.name);
    return v;
}

bool QuantMix::converts(const TensorSlot& t) const {
    if (t.dims.size() < 2 || !endsWith(t.name, "weight")) return false;
    // Routers, position and token-type embeddings stay as they are (llama.cpp keeps them too).
    return !contains(t.name, "ffn_gate_inp") && !contains(t.name, "pos_embd") && !contains(t.name, "token_types");
}

TensorType QuantMix::typeFor(const TensorSlot& t) const {
    if (!converts(t)) return t.type;
    TensorType nt = traits(base_).quantized ? ruleType(t) : base_;
    const uint64_t nx = t.dims[0];
    if (nx % traits(nt).blockSize != 0) nt = smallBlockFallback(nt);
    if (nx % traits(nt).blockSize != 0) nt = TensorType::F16;
    return nt;
}

TensorType QuantMix::ruleType(const TensorSlot& t) const {
    const TensorType base = base_;
    const std::string& n = t.name;
    const int i = t.layer < 0 ? 0 : t.layer, layers = t.layers;
    const bool q2 = name_ == "Q2_K", q3m = name_ == "Q3_K_M", q3l = name_ == "Q3_K_L";
    const bool q4s = name_ == "Q4_K_S", q4m = name_ == "Q4_K_M", q5m = name_ == "Q5_K_M";

    if (n == "output.weight" || (!t.hasOutput && n == "token_embd.weight")) {
        if (t.dims[0] % 256 != 0) return TensorType::Q8_0;
        return base == TensorType::Q8_0 ? base : TensorType::Q6_K;
    }
    if (endsWith(n, "attn_v.weight")) {
        if (q2) return t.gqa >= 4 ? TensorType::Q4_K : TensorType::Q3_K;
        if (q3m) return i < 2 ? TensorType::Q5_K : TensorType::Q4_K;
        if (q3l) return TensorType::Q5_K;
        if ((q4m || q5m) && useMoreBits(i, layers)) return TensorType::Q6_K;
        if (q4s && i < 4) return TensorType::Q5_K;
        return base;
    }
    if (contains(n, "ffn_down")) {
        if (q2) return TensorType::Q3_K;
        if (q3m) return i < layers / 16 ? TensorType::Q5_K : TensorType::Q4_K;
        if (q3l) return TensorType::Q5_K;
        if ((q4m || q5m) && useMoreBits(i, layers)) return TensorType::Q6_K;
        if (q4s && i < layers / 8) return TensorType::Q5_K;
        return base;
    }
    if (endsWith(n, "attn_output.weight")) {
        if (q2) return TensorType::Q3_K;
        if (q3m) return TensorType::Q4_K;
        if (q3l) return TensorType::Q5_K;
        return base;
    }
    if (endsWith(n, "attn_qkv.weight")) {
        if (q3m || q3l) return TensorType::Q4_K;
        if (q4m) return TensorType::Q5_K;
        if (q5m) return TensorType::Q6_K;
        return base;
    }
    return base;
}

}  // namespace hearth::quant
