#include "cuda/DeviceWeights.h"

#include <initializer_list>
#include <map>
#include <utility>

#include "cuda/KernelParams.h"

namespace hearth::cuda {
namespace {

constexpr uint64_t kAlign = 256;

struct Planned {
    const TensorView* src;
    DevTensor* dst;
};

}  // namespace

Result<DeviceWeights> DeviceWeights::upload(const ModelWeights& w, int first, int last, bool embedding, bool head,
                                            uint64_t reserveBytes, const std::string& deviceName) {
    DeviceWeights out;
    out.layers.resize(static_cast<size_t>(last - first));
    std::vector<Planned> plan;
    auto add = [&](const TensorView& t, DevTensor& d) { if (t.present()) plan.push_back({&t, &d}); };
    if (embedding) add(w.tokenEmbd, out.tokenEmbd);
    if (head) {
        add(w.outputNorm, out.outputNorm);
        add(w.output, out.output);
    }
    for (int li = first; li < last; ++li) {
        const LayerWeights& L = w.layers[static_cast<size_t>(li)];
        DevLayer& D = out.layers[static_cast<size_t>(li - first)];
        using P = std::pair<const TensorView*, DevTensor*>;
        for (auto [s, d] : std::initializer_list<P>{{&L.attnNorm, &D.attnNorm}, {&L.wq, &D.wq}, {&L.wk, &D.wk}, {&L.wv, &D.wv},
                            {&L.bq, &D.bq}, {&L.bk, &D.bk}, {&L.bv, &D.bv}, {&L.qNorm, &D.qNorm}, {&L.kNorm, &D.kNorm},
                            {&L.wo, &D.wo}, {&L.ffnNorm, &D.ffnNorm}, {&L.wGate, &D.wGate}, {&L.wUp, &D.wUp},
                            {&L.wDown, &D.wDown}})
            add(*s, *d);
    }
    // Matrices must be of a type the kernels run; one copy per distinct host tensor (tied output).
    std::map<const void*, uint64_t> offsetOf;
    uint64_t total = 0;
    for (const Planned& p : plan) {
        const TensorView& t = *p.src;
        const bool matrix = t.rows > 1 || t.type != TensorType::F32;
        if (matrix && !gemvSupports(static_cast<int>(t.type)))
            return makeError(ErrorCode::BadTensorShape, "tensor '" + t.name + "' has type " +
                                                            std::string(tensorTypeName(t.type)) +
                                                            ", which the CUDA backend cannot compute with");
        if (matrix && t.type != TensorType::F32 && t.type != TensorType::F16 && t.type != TensorType::BF16 && t.cols % 32 != 0)
            return makeError(ErrorCode::BadTensorShape, "tensor '" + t.name + "' has rows of " + std::to_string(t.cols) +
                                                            " elements, not a multiple of 32");
        if (offsetOf.count(t.data)) continue;
        offsetOf[t.data] = total;
        total += (t.bytes + kAlign - 1) / kAlign * kAlign;
    }
    size_t freeB = 0, totalB = 0;
    HEARTH_CUDA_TRY(cudaMemGetInfo(&freeB, &totalB));
    if (total + reserveBytes > freeB)
        return makeError(ErrorCode::OutOfMemory,
                         "the model's layers " + std::to_string(first) + ".." + std::to_string(last - 1) + " need " +
                             std::to_string((total + reserveBytes) >> 20) + " MiB on " + deviceName + " (weights " +
                             std::to_string(total >> 20) + " MiB + working memory " + std::to_string(reserveBytes >> 20) +
                             " MiB) but only " + std::to_string(freeB >> 20) +
                             " MiB are free; put layers on the CPU (cpu layers), split across devices, or use a smaller quantization");
    // Slack after the last tensor: kernels may read a 16-byte aligned superset of a row's bytes.
    HEARTH_TRY(out.arena_.allocate(total + kAlign, "model weights"));
    auto* base = out.arena_.as<uint8_t>();
    std::map<const void*, bool> copied;
    for (const Planned& p : plan) {
        const TensorView& t = *p.src;
        const uint64_t off = offsetOf[t.data];
        if (!copied[t.data]) {
            HEARTH_CUDA_TRY(cudaMemcpy(base + off, t.data, t.bytes, cudaMemcpyHostToDevice));
            copied[t.data] = true;
        }
        DevTensor& d = *p.dst;
        d.type = static_cast<int>(t.type);
        d.rows = t.rows;
        d.cols = t.cols;
        d.rowBytes = t.rows ? static_cast<int64_t>(t.bytes / static_cast<uint64_t>(t.rows)) : 0;
        d.data = base + off;
    }
    return out;
}

}  // namespace hearth::cuda
