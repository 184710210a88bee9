#include "cpu/CpuBackend.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "cpu/CpuOps.h"

namespace hearth::cpu {
namespace {

WeightView view(const TensorView& t) { return WeightView{t.type, t.rows, t.cols, t.data}; }

uint64_t meminfoKb(const char* key) {
    std::ifstream in("/proc/meminfo");
    std::string k;
    uint64_t v = 0;
    std::string unit;
    while (in >> k >> v >> unit)
        if (k == key) return v;
    return 0;
}

}  // namespace

Result<std::unique_ptr<CpuBackend>> CpuBackend::create(std::shared_ptr<const GgufFile> file, const ModelConfig& config,
                                                       int threads, int firstLayer, int lastLayer) {
    if (lastLayer < 0) lastLayer = static_cast<int>(config.nLayers);
    if (firstLayer < 0 || firstLayer > lastLayer || lastLayer > static_cast<int>(config.nLayers))
        return makeError(ErrorCode::InvalidArgument, "CPU layer range [" + std::to_string(firstLayer) + ", " +
                                                         std::to_string(lastLayer) + ") is not inside the model's " +
                                                         std::to_string(config.nLayers) + " layers");
    auto w = ModelWeights::load(std::move(file), config, &matmulSupports);
    if (!w) return w.error();
    return std::unique_ptr<CpuBackend>(new CpuBackend(std::move(*w), threads, firstLayer, lastLayer));
}

Result<std::unique_ptr<CpuBackend>> CpuBackend::open(const std::string& modelPath, int threads) {
    auto f = GgufFile::open(modelPath);
    if (!f) return f.error();
    auto c = ModelConfig::fromGguf(**f);
    if (!c) return c.error();
    return create(*f, *c, threads);
}

CpuBackend::CpuBackend(ModelWeights weights, int threads, int first, int last)
    : weights_(std::move(weights)), pool_(threads), first_(first), last_(last) {
    const auto& c = weights_.config();
    layout_ = KvLayout{KvDType::F16, static_cast<uint32_t>(last - first), c.nHeadKv, c.headDim};
}

CpuBackend::~CpuBackend() { std::free(kv_); }

uint64_t CpuBackend::kvBlockBytes(KvDType dtype) const {
    KvLayout l = layout_;
    l.dtype = dtype;
    return l.blockBytes();
}

Status CpuBackend::allocateKv(uint32_t numBlocks, KvDType dtype) {
    if (dtype == KvDType::FP8_E4M3)
        return makeError(ErrorCode::Unavailable, "FP8 KV cache needs the CUDA backend; use f16 or q8_0 on the CPU");
    if (dtype == KvDType::Q8_0 && layout_.headDim % 32 != 0)
        return makeError(ErrorCode::InvalidArgument, "q8_0 KV cache needs a head size that is a multiple of 32 (this model's is " +
                                                         std::to_string(layout_.headDim) + ")");
    if (numBlocks == 0) return makeError(ErrorCode::InvalidArgument, "KV pool needs at least one block");
    KvLayout l = layout_;
    l.dtype = dtype;
    const uint64_t bytes = static_cast<uint64_t>(numBlocks) * l.blockBytes();
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p)
        return makeError(ErrorCode::OutOfMemory, "cannot allocate a KV pool of " + std::to_string(bytes >> 20) + " MiB");
    std::free(kv_);
    kv_ = static_cast<uint8_t*>(p);
    layout_ = l;
    numBlocks_ = numBlocks;
    return Status::success();
}

void CpuBackend::ensureBuffers(int64_t T, int64_t R) {
    const auto& c = weights_.config();
    if (T > capTokens_) {
        capTokens_ = T;
        x_.resize(T * c.nEmbd);
        h_.resize(T * c.nEmbd);
        q_.resize(T * c.qDim());
        k_.resize(T * c.kvDim());
        v_.resize(T * c.kvDim());
        att_.resize(T * c.qDim());
        gate_.resize(T * c.nFf);
        up_.resize(T * c.nFf);
        cos_.resize(T * (c.ropeDims / 2));
        sin_.resize(T * (c.ropeDims / 2));
    }
    if (R > capRows_) {
        capRows_ = R;
        rowsIn_.resize(R * c.nEmbd);
    }
}

void CpuBackend::project(const TensorView& w, const float* x, int64_t n, float* y) {
    matmul(view(w), x, n, y, pool_, mmScratch_);
}

Status CpuBackend::forward(const ForwardBatch& b, std::vector<float>& logits) {
    const auto& c = weights_.config();
    if (first_ != 0 || last_ != static_cast<int>(c.nLayers))
        return makeError(ErrorCode::Internal, "forward() on a CPU stage that does not own every layer");
    HEARTH_TRY(b.validate(numBlocks_, c.nVocab));
    ensureBuffers(b.numTokens(), static_cast<int64_t>(b.logitRows.size()));
    embed(b, x_.data());
    HEARTH_TRY(forwardLayers(b, x_.data()));
    head(b, x_.data(), logits);
    return Status::success();
}

void CpuBackend::embed(const ForwardBatch& b, float* hidden) {
    const int64_t E = weights_.config().nEmbd;
    pool_.run(b.numTokens(), [&](int64_t t, int) {
        dequantizeRow(view(weights_.tokenEmbd), b.tokens[t], hidden + t * E);
    });
}

Status CpuBackend::forwardLayers(const ForwardBatch& b, float* x) {
    if (!kv_) return makeError(ErrorCode::Internal, "forward before allocateKv");
    const auto& c = weights_.config();
    const int64_t T = b.numTokens();
    const int64_t E = c.nEmbd, Q = c.qDim(), KV = c.kvDim(), F = c.nFf, D = c.headDim;
    const int64_t pairs = c.ropeDims / 2;
    ensureBuffers(T, static_cast<int64_t>(b.logitRows.size()));

    const float* freqs = weights_.ropeFreqs.present() ? static_cast<const float*>(weights_.ropeFreqs.data) : nullptr;
    for (const auto& s : b.seqs)
        for (int32_t i = 0; i < s.numTokens; ++i) {
            const int64_t t = s.tokenBegin + i;
            ropeAngles(static_cast<float>(s.startPos + i), c, freqs, cos_.data() + t * pairs, sin_.data() + t * pairs);
        }

    auto addBias = [&](const TensorView& bias, float* y, int64_t width) {
        if (!bias.present()) return;
        const auto* bv = static_cast<const float*>(bias.data);
        for (int64_t t = 0; t < T; ++t) addInPlace(y + t * width, bv, width);
    };

    for (int li = first_; li < last_; ++li) {
        const LayerWeights& L = weights_.layers[li];
        const uint32_t kvLayer = static_cast<uint32_t>(li - first_);
        const auto* attnNorm = static_cast<const float*>(L.attnNorm.data);
        pool_.run(T, [&](int64_t t, int) { rmsNorm(x + t * E, attnNorm, E, c.rmsEps, h_.data() + t * E); });
        project(L.wq, h_.data(), T, q_.data());
        project(L.wk, h_.data(), T, k_.data());
        project(L.wv, h_.data(), T, v_.data());
        addBias(L.bq, q_.data(), Q);
        addBias(L.bk, k_.data(), KV);
        addBias(L.bv, v_.data(), KV);
        const auto* qn = L.qNorm.present() ? static_cast<const float*>(L.qNorm.data) : nullptr;
        const auto* kn = L.kNorm.present() ? static_cast<const float*>(L.kNorm.data) : nullptr;
        pool_.run(T, [&](int64_t t, int) {
            const float* cs = cos_.data() + t * pairs;
            const float* sn = sin_.data() + t * pairs;
            for (uint32_t h = 0; h < c.nHead; ++h) {
                float* qh = q_.data() + t * Q + h * D;
                if (qn) rmsNorm(qh, qn, D, c.rmsEps, qh);
                applyRope(qh, c, cs, sn);
            }
            for (uint32_t h = 0; h < c.nHeadKv; ++h) {
                float* kh = k_.data() + t * KV + h * D;
                if (kn) rmsNorm(kh, kn, D, c.rmsEps, kh);
                applyRope(kh, c, cs, sn);
            }
        });
        CpuAttention::storeKv(b, k_.data(), v_.data(), kv_, layout_, kvLayer, pool_);
        attention_.attend(b, q_.data(), kv_, layout_, kvLayer, c, att_.data(), pool_);
        project(L.wo, att_.data(), T, h_.data());
        addInPlace(x, h_.data(), T * E);

        const auto* ffnNorm = static_cast<const float*>(L.ffnNorm.data);
        pool_.run(T, [&](int64_t t, int) { rmsNorm(x + t * E, ffnNorm, E, c.rmsEps, h_.data() + t * E); });
        project(L.wGate, h_.data(), T, gate_.data());
        project(L.wUp, h_.data(), T, up_.data());
        pool_.run(T, [&](int64_t t, int) { siluMul(gate_.data() + t * F, up_.data() + t * F, F); });
        project(L.wDown, gate_.data(), T, h_.data());
        addInPlace(x, h_.data(), T * E);
    }
    return Status::success();
}

void CpuBackend::head(const ForwardBatch& b, const float* x, std::vector<float>& logits) {
    const auto& c = weights_.config();
    const int64_t R = static_cast<int64_t>(b.logitRows.size()), E = c.nEmbd;
    ensureBuffers(b.numTokens(), R);
    logits.resize(static_cast<size_t>(R) * c.nVocab);
    if (R == 0) return;
    const auto* outNorm = static_cast<const float*>(weights_.outputNorm.data);
    for (int64_t r = 0; r < R; ++r) rmsNorm(x + b.logitRows[r] * E, outNorm, E, c.rmsEps, rowsIn_.data() + r * E);
    project(weights_.output, rowsIn_.data(), R, logits.data());
}

Status CpuBackend::copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host) {
    const uint64_t bb = layout_.blockBytes();
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i] < 0 || static_cast<uint32_t>(blocks[i]) >= numBlocks_)
            return makeError(ErrorCode::Internal, "copy of KV block " + std::to_string(blocks[i]) + " out of range");
        std::memcpy(host + i * bb, kv_ + static_cast<uint64_t>(blocks[i]) * bb, bb);
    }
    return Status::success();
}

Status CpuBackend::copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host) {
    const uint64_t bb = layout_.blockBytes();
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i] < 0 || static_cast<uint32_t>(blocks[i]) >= numBlocks_)
            return makeError(ErrorCode::Internal, "copy of KV block " + std::to_string(blocks[i]) + " out of range");
        std::memcpy(kv_ + static_cast<uint64_t>(blocks[i]) * bb, host + i * bb, bb);
    }
    return Status::success();
}

std::vector<DeviceMemoryStats> CpuBackend::memoryStats() const {
    DeviceMemoryStats m;
    m.name = "CPU";
    m.device = -1;
    m.total = meminfoKb("MemTotal:") * 1024;
    m.free = meminfoKb("MemAvailable:") * 1024;
    m.weights = weights_.totalBytes();
    m.kvPool = static_cast<uint64_t>(numBlocks_) * layout_.blockBytes();
    m.scratch = (x_.size() + h_.size() + q_.size() + k_.size() + v_.size() + att_.size() + gate_.size() + up_.size() +
                 rowsIn_.size()) * sizeof(float) + mmScratch_.bytes;
    m.firstLayer = first_;
    m.lastLayer = last_;
    return {m};
}

}  // namespace hearth::cpu
