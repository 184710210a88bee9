#include "pipeline/PipelineBackend.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "pipeline/MicroBatch.h"

namespace hearth {

PipelineBackend::PipelineBackend(std::vector<std::unique_ptr<PipelineStage>> stages, std::shared_ptr<void> keepAlive,
                                 uint32_t vocab, uint32_t nEmbd, int microBatches)
    : keepAlive_(std::move(keepAlive)), stages_(std::move(stages)), vocab_(vocab), nEmbd_(nEmbd),
      microBatches_(std::max(1, microBatches)) {
    if (stages_.size() > 1)
        for (size_t i = 0; i < stages_.size(); ++i) workers_.push_back(std::make_unique<StageWorker>());
}

PipelineBackend::~PipelineBackend() {
    workers_.clear();
    stages_.clear();  // before keepAlive_ (the library) goes
}

std::string PipelineBackend::name() const {
    if (stages_.size() == 1) return stages_[0]->name();
    std::string s = "pipeline(";
    for (size_t i = 0; i < stages_.size(); ++i) {
        if (i) s += ", ";
        s += stages_[i]->name() + " [" + std::to_string(stages_[i]->firstLayer()) + "," +
             std::to_string(stages_[i]->lastLayer()) + ")";
    }
    return s + ")";
}

uint64_t PipelineBackend::kvBlockBytes(KvDType dtype) const {
    uint64_t n = 0;
    for (const auto& s : stages_) n += s->kvBlockBytes(dtype);
    return n;
}

Status PipelineBackend::allocateKv(uint32_t numBlocks, KvDType dtype) {
    if (numBlocks == 0) return makeError(ErrorCode::InvalidArgument, "KV pool needs at least one block");
    numBlocks_ = 0;
    for (auto& s : stages_) HEARTH_TRY(s->allocateKv(numBlocks, dtype));
    numBlocks_ = numBlocks;
    kvType_ = dtype;
    return Status::success();
}

Status PipelineBackend::forward(const ForwardBatch& batch, std::vector<float>& logits) {
    return run(batch, {}, &logits, nullptr);
}

Status PipelineBackend::forwardSample(const ForwardBatch& batch, std::span<const RowSampling> rows,
                                      std::vector<TokenId>& tokens) {
    if (!canSampleOnDevice()) return makeError(ErrorCode::Unavailable, name() + " cannot sample on the device");
    if (rows.size() != batch.logitRows.size())
        return makeError(ErrorCode::InvalidArgument, "forwardSample needs one sampling entry per logit row");
    return run(batch, rows, nullptr, &tokens);
}

Status PipelineBackend::run(const ForwardBatch& b, std::span<const RowSampling> rows, std::vector<float>* logits,
                            std::vector<TokenId>* tokens) {
    if (numBlocks_ == 0) return makeError(ErrorCode::Internal, "forward before allocateKv");
    HEARTH_TRY(b.validate(numBlocks_, vocab_));
    if (stages_.size() == 1) {
        PipelineStage::Io io;
        io.logits = logits;
        io.sampling = rows;
        io.tokens = tokens;
        return stages_[0]->run(b, io);
    }

    std::vector<MicroBatch> parts = splitMicroBatches(b, microBatches_);
    const size_t M = parts.size(), S = stages_.size();
    std::vector<std::vector<float>> hidden(M), partLogits(M);
    std::vector<std::vector<TokenId>> partTokens(M);
    for (size_t m = 0; m < M; ++m) hidden[m].resize(static_cast<size_t>(parts[m].batch.numTokens()) * nEmbd_);

    std::mutex mu;
    std::condition_variable cv;
    std::vector<size_t> done(M, 0);  // stages finished per micro-batch
    bool failed = false;
    Status firstError;
    for (size_t s = 0; s < S; ++s) {
        workers_[s]->submit([&, s] {
            for (size_t m = 0; m < M; ++m) {
                {
                    std::unique_lock<std::mutex> l(mu);
                    cv.wait(l, [&] { return failed || done[m] == s; });
                    if (failed) return;
                }
                PipelineStage::Io io;
                io.hiddenIn = hidden[m].data();
                io.hiddenOut = hidden[m].data();
                if (stages_[s]->hasHead()) {
                    io.logits = &partLogits[m];
                    io.tokens = &partTokens[m];
                    if (!rows.empty()) io.sampling = rows.subspan(parts[m].firstLogitRow, parts[m].batch.logitRows.size());
                }
                Status st = stages_[s]->run(parts[m].batch, io);
                {
                    std::lock_guard<std::mutex> l(mu);
                    if (!st.ok() && !failed) {
                        failed = true;
                        firstError = st;
                    }
                    done[m] = s + 1;
                }
                cv.notify_all();
                if (!st.ok()) return;
            }
        });
    }
    for (auto& w : workers_) w->wait();
    if (failed) return firstError;

    if (logits) {
        logits->clear();
        logits->reserve(b.logitRows.size() * static_cast<size_t>(vocab_));
        for (auto& p : partLogits) logits->insert(logits->end(), p.begin(), p.end());
    }
    if (tokens) {
        tokens->clear();
        for (auto& p : partTokens) tokens->insert(tokens->end(), p.begin(), p.end());
    }
    return Status::success();
}

Status PipelineBackend::copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host) {
    const uint64_t stride = kvBlockBytes(kvType_);
    uint64_t off = 0;
    for (auto& s : stages_) {
        HEARTH_TRY(s->copyBlocksToHost(blocks, host + off, stride));
        off += s->kvBlockBytes(kvType_);
    }
    return Status::success();
}

Status PipelineBackend::copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host) {
    const uint64_t stride = kvBlockBytes(kvType_);
    uint64_t off = 0;
    for (auto& s : stages_) {
        HEARTH_TRY(s->copyBlocksFromHost(blocks, host + off, stride));
        off += s->kvBlockBytes(kvType_);
    }
    return Status::success();
}

void PipelineBackend::registerHostMemory(void* p, uint64_t bytes) {
    for (auto& s : stages_) s->registerHostMemory(p, bytes);
}

void PipelineBackend::unregisterHostMemory(void* p) {
    for (auto& s : stages_) s->unregisterHostMemory(p);
}

std::vector<DeviceMemoryStats> PipelineBackend::memoryStats() const {
    std::vector<DeviceMemoryStats> out;
    for (const auto& s : stages_) {
        auto m = s->memoryStats();
        out.insert(out.end(), m.begin(), m.end());
    }
    return out;
}

}  // namespace hearth
