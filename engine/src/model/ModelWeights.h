#pragma once
// The weight tensors of a loaded model, as views into the memory-mapped GGUF file.
//
// Invariants after load() succeeds: every required tensor exists with the shape the config implies
// (ggml order: dims[0] is the input/contiguous dimension) and a type the engine can compute with;
// optional tensors (biases, QK norms, rope factors, a separate output matrix) are either present
// with the right shape or have data == nullptr; the GgufFile stays alive as long as the weights.

#include <memory>
#include <string>
#include <vector>

#include "core/TensorType.h"
#include "gguf/GgufFile.h"
#include "hearth/result.h"
#include "model/ModelConfig.h"

namespace hearth {

struct TensorView {
    std::string name;
    TensorType type = TensorType::F32;
    int64_t cols = 0;  // dims[0]: elements per row (input features)
    int64_t rows = 0;  // dims[1] (1 for vectors): output features
    const void* data = nullptr;
    uint64_t bytes = 0;
    bool present() const { return data != nullptr; }
};

struct LayerWeights {
    TensorView attnNorm, wq, wk, wv, bq, bk, bv, qNorm, kNorm, wo;
    TensorView ffnNorm, wGate, wUp, wDown;
};

class ModelWeights {
public:
    // typeSupported: which tensor types the backend can compute with (matrices); norms and biases
    // must be F32.
    static Result<ModelWeights> load(std::shared_ptr<const GgufFile> file, const ModelConfig& config,
                                     bool (*typeSupported)(TensorType));

    const ModelConfig& config() const { return config_; }
    const GgufFile& file() const { return *file_; }
    TensorView tokenEmbd, outputNorm, output, ropeFreqs;
    std::vector<LayerWeights> layers;
    uint64_t totalBytes() const;

private:
    std::shared_ptr<const GgufFile> file_;
    ModelConfig config_;
};

}  // namespace hearth
