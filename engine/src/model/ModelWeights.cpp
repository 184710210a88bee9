#include "model/ModelWeights.h"

namespace hearth {
namespace {

class Loader {
public:
    Loader(const GgufFile& f, bool (*supported)(TensorType)) : f_(f), supported_(supported) {}

    // A matrix [cols, rows] (ggml order) of any computable type.
    Result<TensorView> matrix(const std::string& name, int64_t cols, int64_t rows, bool required = true) {
        return get(name, cols, rows, required, true);
    }
    // A vector of `n` f32 values (norm weights, biases).
    Result<TensorView> vector(const std::string& name, int64_t n, bool required = true) {
        return get(name, n, 1, required, false);
    }

private:
    Result<TensorView> get(const std::string& name, int64_t cols, int64_t rows, bool required, bool isMatrix) {
        TensorView v;
        v.name = name;
        const GgufTensorInfo* t = f_.findTensor(name);
        if (!t) {
            if (!required) return v;
            return makeError(ErrorCode::MissingTensor, f_.path() + ": required tensor '" + name + "' is missing");
        }
        const int64_t c = static_cast<int64_t>(t->dims[0]);
        const int64_t r = static_cast<int64_t>(t->rows());
        if (c != cols || r != rows)
            return makeError(ErrorCode::BadTensorShape,
                             f_.path() + ": tensor '" + name + "' has shape [" + std::to_string(c) + ", " +
                                 std::to_string(r) + "], expected [" + std::to_string(cols) + ", " +
                                 std::to_string(rows) + "]");
        if (isMatrix ? !supported_(t->type) : t->type != TensorType::F32)
            return makeError(ErrorCode::BadTensorShape, f_.path() + ": tensor '" + name + "' has type " +
                                                            std::string(tensorTypeName(t->type)) +
                                                            ", which this backend cannot compute with");
        v.type = t->type;
        v.cols = c;
        v.rows = r;
        v.data = f_.tensorData(*t);
        v.bytes = t->byteSize;
        return v;
    }

    const GgufFile& f_;
    bool (*supported_)(TensorType);
};

#define HEARTH_ASSIGN(lhs, expr)            \
    do {                                    \
        auto _r = (expr);                   \
        if (!_r.ok()) return _r.error();    \
        lhs = std::move(*_r);               \
    } while (0)

}  // namespace

Result<ModelWeights> ModelWeights::load(std::shared_ptr<const GgufFile> file, const ModelConfig& c,
                                        bool (*typeSupported)(TensorType)) {
    ModelWeights w;
    w.file_ = file;
    w.config_ = c;
    Loader L(*file, typeSupported);
    const int64_t E = c.nEmbd, Q = c.qDim(), KV = c.kvDim(), F = c.nFf, V = c.nVocab, D = c.headDim;
    HEARTH_ASSIGN(w.tokenEmbd, L.matrix("token_embd.weight", E, V));
    HEARTH_ASSIGN(w.outputNorm, L.vector("output_norm.weight", E));
    HEARTH_ASSIGN(w.output, L.matrix("output.weight", E, V, false));
    if (!w.output.present()) w.output = w.tokenEmbd;  // tied embeddings
    if (c.hasRopeFreqs) HEARTH_ASSIGN(w.ropeFreqs, L.vector("rope_freqs.weight", c.ropeDims / 2));
    w.layers.resize(c.nLayers);
    for (uint32_t i = 0; i < c.nLayers; ++i) {
        auto& l = w.layers[i];
        const std::string p = "blk." + std::to_string(i) + ".";
        HEARTH_ASSIGN(l.attnNorm, L.vector(p + "attn_norm.weight", E));
        HEARTH_ASSIGN(l.wq, L.matrix(p + "attn_q.weight", E, Q));
        HEARTH_ASSIGN(l.wk, L.matrix(p + "attn_k.weight", E, KV));
        HEARTH_ASSIGN(l.wv, L.matrix(p + "attn_v.weight", E, KV));
        HEARTH_ASSIGN(l.wo, L.matrix(p + "attn_output.weight", Q, E));
        // Biases are optional in every architecture (qwen2 always has them, some llamas do too).
        HEARTH_ASSIGN(l.bq, L.vector(p + "attn_q.bias", Q, false));
        HEARTH_ASSIGN(l.bk, L.vector(p + "attn_k.bias", KV, false));
        HEARTH_ASSIGN(l.bv, L.vector(p + "attn_v.bias", KV, false));
        if (c.qkNorm) {
            HEARTH_ASSIGN(l.qNorm, L.vector(p + "attn_q_norm.weight", D));
            HEARTH_ASSIGN(l.kNorm, L.vector(p + "attn_k_norm.weight", D));
        }
        HEARTH_ASSIGN(l.ffnNorm, L.vector(p + "ffn_norm.weight", E));
        HEARTH_ASSIGN(l.wGate, L.matrix(p + "ffn_gate.weight", E, F));
        HEARTH_ASSIGN(l.wUp, L.matrix(p + "ffn_up.weight", E, F));
        HEARTH_ASSIGN(l.wDown, L.matrix(p + "ffn_down.weight", F, E));
    }
    return w;
}

uint64_t ModelWeights::totalBytes() const {
    uint64_t n = tokenEmbd.bytes + outputNorm.bytes + ropeFreqs.bytes;
    if (output.data != tokenEmbd.data) n += output.bytes;
    for (const auto& l : layers)
        for (const TensorView* t : {&l.attnNorm, &l.wq, &l.wk, &l.wv, &l.bq, &l.bk, &l.bv, &l.qNorm, &l.kNorm, &l.wo,
                                    &l.ffnNorm, &l.wGate, &l.wUp, &l.wDown})
            n += t->bytes;
    return n;
}

}  // namespace hearth
