#include "pipeline/CpuStage.h"

#include <cstring>

namespace hearth {

Status CpuStage::run(const ForwardBatch& b, const Io& io) {
    const size_t n = static_cast<size_t>(b.numTokens()) * cpu_->config().nEmbd;
    if (hidden_.size() < n) hidden_.resize(n);
    if (embedding_) {
        cpu_->embed(b, hidden_.data());
    } else {
        if (!io.hiddenIn) return makeError(ErrorCode::Internal, "CPU stage without the embedding got no hidden states");
        std::memcpy(hidden_.data(), io.hiddenIn, n * sizeof(float));
    }
    HEARTH_TRY(cpu_->forwardLayers(b, hidden_.data()));
    if (head_) {
        if (!io.sampling.empty())
            return makeError(ErrorCode::Unavailable, "the CPU stage cannot sample on the device");
        if (!io.logits) return makeError(ErrorCode::Internal, "head stage called without a logits buffer");
        cpu_->head(b, hidden_.data(), *io.logits);
    } else {
        if (!io.hiddenOut) return makeError(ErrorCode::Internal, "CPU stage without the head got no output buffer");
        std::memcpy(io.hiddenOut, hidden_.data(), n * sizeof(float));
    }
    return Status::success();
}

Status CpuStage::copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host, uint64_t hostStride) {
    for (size_t i = 0; i < blocks.size(); ++i) HEARTH_TRY(cpu_->copyBlocksToHost(blocks.subspan(i, 1), host + i * hostStride));
    return Status::success();
}

Status CpuStage::copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host, uint64_t hostStride) {
    for (size_t i = 0; i < blocks.size(); ++i)
        HEARTH_TRY(cpu_->copyBlocksFromHost(blocks.subspan(i, 1), host + i * hostStride));
    return Status::success();
}

}  // namespace hearth
