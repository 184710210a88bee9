#pragma once
// A stage's weights on the GPU, in their GGUF form (quantized blocks as stored in the file), in one
// allocation. Invariants: every matrix has a type the kernels support (gemvSupports) and rows of
// cols elements at rowBytes each; vectors (norms, biases) are f32; the output matrix aliases the
// embedding table when the file ties them and both live on this stage.

#include <cstdint>
#include <vector>

#include "cuda/DeviceBuffer.h"
#include "model/ModelWeights.h"

namespace hearth::cuda {

struct DevTensor {
    int type = -1;         // TensorType id
    int64_t rows = 0, cols = 0, rowBytes = 0;
    const uint8_t* data = nullptr;
    bool present() const { return data != nullptr; }
    const float* f32() const { return reinterpret_cast<const float*>(data); }
};

struct DevLayer {
    DevTensor attnNorm, wq, wk, wv, bq, bk, bv, qNorm, kNorm, wo, ffnNorm, wGate, wUp, wDown;
};

class DeviceWeights {
public:
    // Uploads layers [first, last) plus the embedding / head tensors when asked. Fails with
    // OutOfMemory (saying how much is needed and free) unless the weights and `reserveBytes` fit.
    static Result<DeviceWeights> upload(const ModelWeights& w, int first, int last, bool embedding, bool head,
                                        uint64_t reserveBytes, const std::string& deviceName);

    DevTensor tokenEmbd, outputNorm, output;
    std::vector<DevLayer> layers;  // layers[i] is model layer first + i
    uint64_t bytes() const { return arena_.size(); }

private:
    DeviceBuffer arena_;
};

}  // namespace hearth::cuda
