#include "model/ModelConfig.h"

namespace hearth {

const std::vector<std::string>& runnableArchitectures() {
    static const std::vector<std::string> a = {"llama", "qwen2", "qwen3"};
    return a;
}

Result<ModelConfig> ModelConfig::fromGguf(const GgufFile& f) {
    ModelConfig c;
    auto arch = f.getString("general.architecture");
    if (!arch) return arch.error();
    c.archName = *arch;
    if (c.archName == "llama") c.arch = Arch::Llama;
    else if (c.archName == "qwen2") c.arch = Arch::Qwen2;
    else if (c.archName == "qwen3") c.arch = Arch::Qwen3;
    else
        return makeError(ErrorCode::UnsupportedArch, f.path() + ": architecture '" + c.archName +
                                                         "' is not supported (supported: llama, qwen2, qwen3)");
    c.name = f.getStringOr("general.name", "");
    const std::string p = c.archName + ".";
    auto req = [&](const std::string& key, uint32_t* out) -> Status {
        auto v = f.getU64(p + key);
        if (!v) return v.error();
        if (*v == 0 || *v > (1u << 30))
            return makeError(ErrorCode::Corrupt, f.path() + ": key '" + p + key + "' has impossible value " +
                                                     std::to_string(*v));
        *out = static_cast<uint32_t>(*v);
        return Status::success();
    };
    HEARTH_TRY(req("block_count", &c.nLayers));
    HEARTH_TRY(req("embedding_length", &c.nEmbd));
    HEARTH_TRY(req("attention.head_count", &c.nHead));
    HEARTH_TRY(req("feed_forward_length", &c.nFf));
    HEARTH_TRY(req("context_length", &c.nCtxTrain));
    c.nHeadKv = c.nHead;
    if (f.find(p + "attention.head_count_kv")) HEARTH_TRY(req("attention.head_count_kv", &c.nHeadKv));
    if (c.nHead % c.nHeadKv != 0)
        return makeError(ErrorCode::Corrupt, f.path() + ": head_count " + std::to_string(c.nHead) +
                                                 " is not a multiple of head_count_kv " + std::to_string(c.nHeadKv));
    c.headDim = c.nEmbd / c.nHead;
    if (f.find(p + "attention.key_length")) HEARTH_TRY(req("attention.key_length", &c.headDim));
    uint32_t vlen = c.headDim;
    if (f.find(p + "attention.value_length")) HEARTH_TRY(req("attention.value_length", &vlen));
    if (vlen != c.headDim)
        return makeError(ErrorCode::UnsupportedArch, f.path() + ": key_length != value_length is not supported");
    auto eps = f.getF64(p + "attention.layer_norm_rms_epsilon");
    if (!eps) return eps.error();
    c.rmsEps = static_cast<float>(*eps);
    c.ropeFreqBase = static_cast<float>(f.getF64Or(p + "rope.freq_base", 10000.0));
    c.ropeDims = static_cast<uint32_t>(f.getU64Or(p + "rope.dimension_count", c.headDim));
    if (c.ropeDims % 2 != 0 || c.ropeDims > c.headDim)
        return makeError(ErrorCode::Corrupt, f.path() + ": rope.dimension_count " + std::to_string(c.ropeDims) +
                                                 " does not fit head size " + std::to_string(c.headDim));
    const std::string scaling = f.getStringOr(p + "rope.scaling.type", "none");
    if (scaling == "linear") {
        const double factor = f.getF64Or(p + "rope.scaling.factor", 1.0);
        if (factor > 0) c.ropeFreqScale = static_cast<float>(1.0 / factor);
    } else if (scaling != "none" && scaling != "" && scaling != "llama3") {
        return makeError(ErrorCode::UnsupportedArch, f.path() + ": rope scaling '" + scaling + "' is not supported");
    }
    c.hasRopeFreqs = f.findTensor("rope_freqs.weight") != nullptr;
    c.ropeStyle = c.arch == Arch::Llama ? RopeStyle::Normal : RopeStyle::NeoX;
    c.qkvBias = c.arch == Arch::Qwen2;
    c.qkNorm = c.arch == Arch::Qwen3;

    if (const GgufValue* v = f.find(p + "vocab_size"); v && v->asU64()) {
        c.nVocab = static_cast<uint32_t>(*v->asU64());
    } else if (const GgufValue* t = f.find("tokenizer.ggml.tokens"); t && t->asArray()) {
        c.nVocab = static_cast<uint32_t>(t->asArray()->size());
    } else if (const auto* emb = f.findTensor("token_embd.weight"); emb && emb->dims.size() == 2) {
        c.nVocab = static_cast<uint32_t>(emb->dims[1]);
    }
    if (c.nVocab == 0)
        return makeError(ErrorCode::MissingKey, f.path() + ": required key 'tokenizer.ggml.tokens' is missing");
    return c;
}

}  // namespace hearth
