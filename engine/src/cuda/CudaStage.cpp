#include "cuda/CudaStage.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "cpu/CpuOps.h"
#include "cuda/MeasureSkips.h"
#include "sampling/Sampler.h"

namespace hearth::cuda {
namespace {

constexpr uint64_t kMarginBytes = 256ull << 20;      // left free on the device for the driver and cuBLAS
constexpr uint64_t kPartialBytes = 64ull << 20;      // cap of the attention partition buffers
constexpr uint64_t kDequantCap = 256ull << 20;       // cap of the f16 weight chunk for cuBLAS
constexpr int kMaxPartitions = kAttnMaxPartitions;
constexpr int kPartitionBlocks = 4;                  // KV blocks per attention partition (default)

bool quantized(int t) { return t != 0 && t != 1 && t != 30; }

}  // namespace

Result<std::unique_ptr<CudaStage>> CudaStage::create(const HearthCudaStageArgs& a) {
    std::unique_ptr<CudaStage> s(new CudaStage());
    HEARTH_TRY(s->init(a));
    return s;
}

CudaStage::~CudaStage() {
    cudaSetDevice(device_);
    if (stream_) cudaStreamSynchronize(stream_);
    graphs_.clear();
    if (stream_) cudaStreamDestroy(stream_);
}

Status CudaStage::init(const HearthCudaStageArgs& a) {
    const ModelWeights& w = *a.weights;
    cfg_ = w.config();
    device_ = a.device;
    first_ = a.firstLayer;
    last_ = a.lastLayer;
    embedding_ = a.embedding != 0;
    head_ = a.head != 0;
    useGraphs_ = a.useGraphs != 0;
    batchInvariant_ = a.batchInvariant != 0;
    // The KV blocks an attention partition takes at most (while the context fits the partitions):
    // fewer means more CTAs on short contexts. HEARTH_CUDA_ATTN_BLOCKS overrides it (measuring).
    partitionBlocks_ = kPartitionBlocks;
    if (const char* v = std::getenv("HEARTH_CUDA_ATTN_BLOCKS"); v && std::atoi(v) > 0) {
        partitionBlocks_ = std::atoi(v);
        scalePartitions_ = false;
    }
    if (batchInvariant_) {
        // One partition size for every context up to maxContext: a row's attention blocks are then
        // grouped and merged the same way in any step (at most kMaxPartitions partitions).
        const int ctxBlocks = (std::max(a.maxContext, 16) + 15) / 16;
        fixedPartitionBlocks_ = std::max(kPartitionBlocks, (ctxBlocks + kMaxPartitions - 1) / kMaxPartitions);
        maxPartitions_ = (ctxBlocks + fixedPartitionBlocks_ - 1) / fixedPartitionBlocks_;
    }
    if (first_ < 0 || first_ >= last_ || last_ > static_cast<int>(cfg_.nLayers))
        return makeError(ErrorCode::InvalidArgument, "CUDA stage layer range is outside the model");
    if (cfg_.headDim > kAttnMaxHeadDim)
        return makeError(ErrorCode::UnsupportedArch, "head size " + std::to_string(cfg_.headDim) +
                                                         " is larger than the CUDA backend supports (256)");
    if (cfg_.gqaGroup() > kAttnMaxRows)
        return makeError(ErrorCode::UnsupportedArch, "a GQA group of " + std::to_string(cfg_.gqaGroup()) +
                                                         " query heads per KV head is more than the CUDA backend supports (32)");
    HEARTH_CUDA_TRY(cudaSetDevice(device_));
    cudaDeviceProp prop{};
    HEARTH_CUDA_TRY(cudaGetDeviceProperties(&prop, device_));
    deviceName_ = prop.name;
    name_ = deviceName_ + " (cuda" + std::to_string(device_) +
            (a.logicalCount > 1 ? "#" + std::to_string(a.logicalIndex) : std::string()) + ")";
    HEARTH_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    auto caps = DeviceCaps::choose(device_, prop, name_);
    if (!caps) return caps.error();
    caps_ = *caps;
    HEARTH_CUDA_TRY(prepareAttention());
    mmaAttention_ = !batchInvariant_ && std::getenv("HEARTH_CUDA_NO_MMA_ATTENTION") == nullptr;
    decodeAttention_ = !batchInvariant_ && std::getenv("HEARTH_CUDA_NO_DECODE_ATTENTION") == nullptr;
    // Decode-like steps on the tensor-core kernel too (F16 KV); HEARTH_CUDA_NO_MMA_DECODE=1 keeps
    // them on the CUDA-core decode kernel (measuring).
    mmaDecode_ = mmaAttention_ && std::getenv("HEARTH_CUDA_NO_MMA_DECODE") == nullptr;
    // RoPE and the KV store in the Q/K/V matrix-vector epilogue (on unless set, for measuring and
    // for the test that compares it with the separate kernel).
    ropeFusion_ = std::getenv("HEARTH_CUDA_NO_ROPE_FUSION") == nullptr;
    // HEARTH_CUDA_MMA_ATTENTION=1 (tests): every step without a graph on the tensor-core kernel.
    const char* force = std::getenv("HEARTH_CUDA_MMA_ATTENTION");
    forceMmaAttention_ = mmaAttention_ && force && std::strcmp(force, "1") == 0;
    if (w.ropeFreqs.present()) {
        const auto* f = static_cast<const float*>(w.ropeFreqs.data);
        ropeFreqs_.assign(f, f + cfg_.ropeDims / 2);
    }
    tileTokens_ = std::max(1, kAttnMaxRows / static_cast<int>(cfg_.gqaGroup()));
    kv_ = CudaKvLayout{kKvF16, static_cast<uint32_t>(last_ - first_), cfg_.nHeadKv, cfg_.headDim};

    // f16 chunk for the cuBLAS path: the largest quantized matrix, capped.
    auto consider = [&](const TensorView& t) {
        if (t.present() && quantized(static_cast<int>(t.type)))
            dequantBytes_ = std::max<uint64_t>(dequantBytes_, std::min<uint64_t>(kDequantCap, t.rows * t.cols * 2ull));
    };
    for (int li = first_; li < last_; ++li)
        for (const TensorView* t : {&w.layers[li].wq, &w.layers[li].wk, &w.layers[li].wv, &w.layers[li].wo,
                                    &w.layers[li].wGate, &w.layers[li].wUp, &w.layers[li].wDown})
            consider(*t);
    if (head_) consider(w.output);

    const int tokens = std::max(64, a.maxBatchTokens);
    const int logitRows = std::min(tokens, 256);
    auto up = DeviceWeights::upload(w, first_, last_, embedding_, head_, scratchEstimate(tokens, logitRows) + kMarginBytes, name_);
    if (!up) return up.error();
    weights_ = std::move(*up);
    // Only types this stage's matrices have take the integer form: preparations for it write the
    // int8 inputs too, which a model without such a matrix never reads.
    uint32_t present = 0;
    auto note = [&](const DevTensor& t) { present |= t.type >= 0 && t.type < 32 ? 1u << t.type : 0u; };
    for (const DevLayer& L : weights_.layers)
        for (const DevTensor* t : {&L.wq, &L.wk, &L.wv, &L.wo, &L.wGate, &L.wUp, &L.wDown}) note(*t);
    if (head_) note(weights_.output);
    caps_.i8MmaTypes &= present;
    HEARTH_TRY(ensureCapacity(tokens, logitRows));
    HEARTH_TRY(ensureRope(std::max<int>(4096, std::min<int>(cfg_.nCtxTrain, 8192)) - 1));
    return Status::success();
}

uint64_t CudaStage::scratchEstimate(int T, int R) const {
    const uint64_t E = cfg_.nEmbd, Q = cfg_.qDim(), KV = cfg_.kvDim(), F = cfg_.nFf, V = cfg_.nVocab;
    const uint64_t maxCols = std::max({E, Q, F});
    uint64_t n = T * (E + 2 * Q + 2 * KV + 2 * F) * 4;        // x, q, k, v, att, ffn, up
    n += T * maxCols * (1 + 2 + 4) + T * maxCols / 32 * 8;   // LinearOps inputs
    n += dequantBytes_ + (32ull << 20);                      // f16 weight chunk, cuBLAS workspace
    n += partialBytes(T) + R * V * 4 + (8ull << 20);         // attention partitions, logits, metadata
    return n;
}

uint64_t CudaStage::partialBytes(int tokens) const {
    if (!batchInvariant_) return kPartialBytes;
    // Every partition a row can need, for every token of a step.
    const uint64_t perPartition = static_cast<uint64_t>(tokens) * cfg_.nHead * (cfg_.headDim + 2) * 4;
    return std::max<uint64_t>(kPartialBytes, perPartition * maxPartitions_);
}

Status CudaStage::ensureCapacity(int tokens, int logitRows) {
    if (tokens <= capTokens_ && logitRows <= capLogits_) return Status::success();
    graphs_.clear();
    HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    const uint64_t E = cfg_.nEmbd, Q = cfg_.qDim(), KV = cfg_.kvDim(), F = cfg_.nFf, V = cfg_.nVocab;
    if (tokens > capTokens_) {
        const uint64_t T = static_cast<uint64_t>(std::max(tokens, capTokens_ + capTokens_ / 2));
        HEARTH_TRY(x_.allocate(T * E * 4, "hidden states"));
        HEARTH_TRY(q_.allocate(T * Q * 4, "queries"));
        HEARTH_TRY(k_.allocate(T * KV * 4, "keys"));
        HEARTH_TRY(v_.allocate(T * KV * 4, "values"));
        HEARTH_TRY(att_.allocate(T * Q * 4, "attention output"));
        HEARTH_TRY(ffn_.allocate(T * F * 4, "feed-forward"));
        HEARTH_TRY(up_.allocate(T * F * 4, "feed-forward"));
        const uint64_t pb = partialBytes(static_cast<int>(T));
        HEARTH_TRY(partO_.allocate(pb, "attention partitions"));
        HEARTH_TRY(partML_.allocate(pb / (cfg_.headDim + 2) * 2 + 64, "attention partitions"));
        HEARTH_TRY(counters_.allocate(T * cfg_.nHeadKv * 4, "attention counters"));
        HEARTH_CUDA_TRY(cudaMemset(counters_.data(), 0, counters_.size()));
        HEARTH_TRY(linear_.init(static_cast<int>(T), static_cast<int>(std::max({E, Q, F})), dequantBytes_, stream_, caps_));
        linear_.setBatchInvariant(batchInvariant_);
        capTokens_ = static_cast<int>(T);
    }
    if (logitRows > capLogits_ || !logits_.size()) {
        const uint64_t R = static_cast<uint64_t>(std::max(logitRows, capLogits_));
        HEARTH_TRY(logits_.allocate(R * V * 4, "logits"));
        HEARTH_TRY(sampled_.allocate(R * 8, "sampled tokens"));
        capLogits_ = static_cast<int>(R);
    }
    const uint64_t hostBytes = std::max<uint64_t>(static_cast<uint64_t>(capTokens_) * E, static_cast<uint64_t>(capLogits_) * (V + 2)) * 4;
    if (hostOut_.size() < hostBytes) HEARTH_TRY(hostOut_.allocate(hostBytes, "step outputs"));
    return Status::success();
}

Status CudaStage::ensureRope(int maxPosition) {
    if (maxPosition < ropeLen_) return Status::success();
    const int pairs = static_cast<int>(cfg_.ropeDims / 2);
    int len = std::max(ropeLen_, 4096);
    while (len <= maxPosition) len *= 2;
    graphs_.clear();
    HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    // The CPU's own angle computation, so both backends rotate by identical cos/sin values.
    std::vector<float> c(static_cast<size_t>(len) * pairs), s(c.size());
    const float* freqs = ropeFreqs_.empty() ? nullptr : ropeFreqs_.data();
    for (int p = 0; p < len; ++p)
        cpu::ropeAngles(static_cast<float>(p), cfg_, freqs, c.data() + static_cast<size_t>(p) * pairs,
                        s.data() + static_cast<size_t>(p) * pairs);
    HEARTH_TRY(ropeCos_.allocate(c.size() * 4, "rope table"));
    HEARTH_TRY(ropeSin_.allocate(s.size() * 4, "rope table"));
    HEARTH_CUDA_TRY(cudaMemcpy(ropeCos_.data(), c.data(), c.size() * 4, cudaMemcpyHostToDevice));
    HEARTH_CUDA_TRY(cudaMemcpy(ropeSin_.data(), s.data(), s.size() * 4, cudaMemcpyHostToDevice));
    ropeLen_ = len;
    return Status::success();
}

uint64_t CudaStage::kvBlockBytes(KvDType dtype) const {
    CudaKvLayout l = kv_;
    l.kind = CudaKvLayout::kindOf(dtype);
    return l.blockBytes();
}

Status CudaStage::allocateKv(uint32_t numBlocks, KvDType dtype) {
    HEARTH_CUDA_TRY(cudaSetDevice(device_));
    if (numBlocks == 0) return makeError(ErrorCode::InvalidArgument, "KV pool needs at least one block");
    if (dtype == KvDType::Q8_0 && cfg_.headDim % 32 != 0)
        return makeError(ErrorCode::InvalidArgument, "q8_0 KV cache needs a head size that is a multiple of 32 (this model's is " +
                                                         std::to_string(cfg_.headDim) + ")");
    CudaKvLayout l = kv_;
    l.kind = CudaKvLayout::kindOf(dtype);
    const uint64_t bytes = static_cast<uint64_t>(numBlocks) * l.blockBytes();
    graphs_.clear();
    HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    kvPool_.reset();
    size_t freeB = 0, totalB = 0;
    HEARTH_CUDA_TRY(cudaMemGetInfo(&freeB, &totalB));
    if (bytes + kMarginBytes > freeB)
        return makeError(ErrorCode::OutOfMemory, "a KV pool of " + std::to_string(numBlocks) + " blocks (" +
                                                     std::to_string(bytes >> 20) + " MiB) does not fit on " + name_ +
                                                     ": " + std::to_string(freeB >> 20) + " MiB free, " +
                                                     std::to_string(kMarginBytes >> 20) + " MiB kept as a margin");
    HEARTH_TRY(kvPool_.allocate(bytes, "the KV pool"));
    HEARTH_CUDA_TRY(cudaMemsetAsync(kvPool_.data(), 0, bytes, stream_));
    HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    kv_ = l;
    numBlocks_ = numBlocks;
    // The register-capped attention for launches of more than one wave of the uncapped kernel for
    // this KV dtype (none where the runtime cannot say); HEARTH_CUDA_ATTN_CAPPED=1 / 0 (tests,
    // measuring): for every / no launch.
    const int resident = attentionMmaResidentCtas(kv_.kind);
    attnCappedAbove_ = resident > 0 ? resident : 1 << 30;
    if (const char* v = std::getenv("HEARTH_CUDA_ATTN_CAPPED")) attnCappedAbove_ = std::atoi(v) != 0 ? -1 : 1 << 30;
    return Status::success();
}

int CudaStage::partitionBlocksFor(const StepShape& sh) const {
    if (batchInvariant_) return fixedPartitionBlocks_;
    // Many sequences fill the device with their own CTAs: longer partitions then save the CTAs'
    // fixed cost and the merge (H200, llama8b Q4_K_M, 64 sequences at context ~150: 16 blocks per
    // partition +6% aggregate over 4, 32 sequences +5%, 8 sequences unchanged). A function of the
    // padded token count, so a decode graph (keyed by it) always has the same partitions.
    if (!scalePartitions_) return partitionBlocks_;
    return partitionBlocks_ * std::clamp(sh.tokens / 8, 1, 4);
}

int CudaStage::partitionsFor(const StepShape& sh, bool graph) const {
    if (forceMmaAttention_ && !graph && attentionMmaSupports(static_cast<int>(cfg_.headDim), kv_.kind)) return 1;
    if (batchInvariant_)  // enough fixed-size partitions for the step (graphs: for any context)
        return graph ? maxPartitions_ : std::max(1, (sh.maxKeyBlocks + fixedPartitionBlocks_ - 1) / fixedPartitionBlocks_);
    const uint64_t perPartition = static_cast<uint64_t>(sh.tokens) * cfg_.nHead * (cfg_.headDim + 2) * 4;
    int cap = static_cast<int>(std::min<uint64_t>(kMaxPartitions, kPartialBytes / std::max<uint64_t>(1, perPartition)));
    cap = std::max(1, cap);
    const int blocks = partitionBlocksFor(sh);
    const int need = (sh.maxKeyBlocks + blocks - 1) / blocks;
    if (graph) {
        // Graphs: the next power of two of what the step needs (a graph per count), so short
        // contexts do not launch CTAs that only exit. Every tile still gets partitions of
        // partitionBlocks_ blocks while its context fits, as with any other count.
        int p2 = 1;
        while (p2 < need) p2 *= 2;
        return std::min(cap, p2);
    }
    // Prefill-sized steps have enough tiles to fill the device; partitions would only add traffic.
    if (sh.tokens > kGemvMaxT && static_cast<int64_t>(sh.tiles) * cfg_.nHeadKv >= 2 * caps_.multiProcessors) return 1;
    return std::max(1, std::min(cap, need));
}

Status CudaStage::run(const ForwardBatch& b, const Io& io) {
    HEARTH_CUDA_TRY(cudaSetDevice(device_));
    if (!kvPool_.size()) return makeError(ErrorCode::Internal, "forward before allocateKv");
    const bool sample = head_ && !io.sampling.empty();
    if (sample && io.sampling.size() != b.logitRows.size())
        return makeError(ErrorCode::InvalidArgument, "one sampling entry per logit row is needed");
    // Steps whose every token is a logit row (decode, and speculative verification: a sequence's
    // token and its drafts) replay a graph of their padded size; prefill steps run eagerly.
    bool allLogits = b.logitRows.size() == static_cast<size_t>(b.numTokens());
    for (size_t i = 0; allLogits && i < b.logitRows.size(); ++i) allLogits = b.logitRows[i] == static_cast<int32_t>(i);
    bool graphable = useGraphs_ && embedding_ && head_ && allLogits;
    // HEARTH_CUDA_VERIFY_GRAPHS=0 (measuring): graphs for pure decode steps only.
    static const bool verifyGraphs = [] {
        const char* v = std::getenv("HEARTH_CUDA_VERIFY_GRAPHS");
        return !v || std::strcmp(v, "0") != 0;
    }();
    if (!verifyGraphs && b.numTokens() != static_cast<int>(b.seqs.size())) graphable = false;
    const int bucket = graphable ? DecodeGraphs::bucketFor(b.numTokens()) : 0;
    const bool graph = bucket > 0;

    const StepShape sh = meta_.build(b, tileTokens_, graph ? bucket : 0, io.sampling);
    HEARTH_TRY(ensureCapacity(sh.tokens, std::max(sh.logitRows, 1)));
    HEARTH_TRY(ensureRope(sh.maxPosition));
    bool moved = false;
    HEARTH_TRY(meta_.upload(stream_, moved));
    if (moved) graphs_.clear();
    if (!embedding_) {
        if (!io.hiddenIn) return makeError(ErrorCode::Internal, "CUDA stage without the embedding got no hidden states");
        HEARTH_CUDA_TRY(cudaMemcpyAsync(x_.data(), io.hiddenIn, static_cast<size_t>(sh.realTokens) * cfg_.nEmbd * 4,
                                        cudaMemcpyHostToDevice, stream_));
    }
    partitions_ = partitionsFor(sh, graph);
    // One token per sequence (batched decode), every token a logit row with several of a sequence
    // (verification), or prefill: the matrix paths differ (LinearOps::setStepKind), so do the graphs.
    using Kind = LinearOps::StepKind;
    const Kind kind = b.numTokens() == static_cast<int>(b.seqs.size()) ? Kind::Decode : allLogits ? Kind::Verify : Kind::Prefill;
    linear_.setStepKind(kind);
    if (graph) {
        const int key = ((bucket * (kMaxPartitions + 1) + partitions_) * 2 + (sample ? 1 : 0)) * 3 + static_cast<int>(kind);
        HEARTH_TRY(graphs_.launch(key, stream_, [&] { return enqueueStep(sh, sample); }));
    } else {
        HEARTH_TRY(enqueueStep(sh, sample));
    }
    return collect(sh, io, sample);
}

Status CudaStage::enqueueStep(const StepShape& sh, bool sample) {
    const int E = static_cast<int>(cfg_.nEmbd);
    if (embedding_) {
        const DevTensor& t = weights_.tokenEmbd;
        HEARTH_TRY(cudaStatus(launchDequantRows(t.type, t.data, t.rowBytes, E, meta_.tokens(), 0, sh.tokens, x_.data(), false, stream_),
                              "embedding lookup"));
    }
    for (int li = first_; li < last_; ++li) HEARTH_TRY(enqueueLayer(li, sh));
    if (!head_ || sh.logitRows == 0) return Status::success();
    const LinearInput in{x_.as<float>(), E, sh.logitRows, E, meta_.logitRows(), weights_.outputNorm.f32(), cfg_.rmsEps};
    const Projection out[1] = {{&weights_.output, logits_.as<float>(), static_cast<int>(cfg_.nVocab), false}};
    HEARTH_TRY(linear_.project(in, out));
    if (sample) {
        SampleParams sp;
        sp.logits = logits_.as<float>();
        sp.vocab = static_cast<int>(cfg_.nVocab);
        sp.rows = meta_.sampling();
        sp.tokens = sampled_.as<int32_t>();
        sp.fallback = sampled_.as<int32_t>() + capLogits_;
        HEARTH_TRY(cudaStatus(launchSample(sp, sh.logitRows, stream_), "sampling"));
    }
    return Status::success();
}

Status CudaStage::enqueueLayer(int li, const StepShape& sh) {
    const DevLayer& L = weights_.layers[static_cast<size_t>(li - first_)];
    const uint32_t kvl = static_cast<uint32_t>(li - first_);
    const int T = sh.tokens, E = static_cast<int>(cfg_.nEmbd), Q = static_cast<int>(cfg_.qDim());
    const int KV = static_cast<int>(cfg_.kvDim()), F = static_cast<int>(cfg_.nFf);

    const LinearInput a{x_.as<float>(), E, T, E, nullptr, L.attnNorm.f32(), cfg_.rmsEps};
    const Projection qkv[3] = {{&L.wq, q_.as<float>(), Q, false, 0}, {&L.wk, k_.as<float>(), KV, false, 1},
                               {&L.wv, v_.as<float>(), KV, false, 2}};

    RopeStoreParams r;
    r.q = q_.as<float>();
    r.k = k_.as<float>();
    r.v = v_.as<float>();
    r.T = T;
    r.Hq = static_cast<int>(cfg_.nHead);
    r.Hkv = static_cast<int>(cfg_.nHeadKv);
    r.D = static_cast<int>(cfg_.headDim);
    r.ropePairs = static_cast<int>(cfg_.ropeDims / 2);
    r.neox = cfg_.ropeStyle == RopeStyle::NeoX ? 1 : 0;
    r.ropeCos = ropeCos_.as<float>();
    r.ropeSin = ropeSin_.as<float>();
    r.tokenPos = meta_.positions();
    r.tokenSlot = meta_.slots();
    r.bq = L.bq.present() ? L.bq.f32() : nullptr;
    r.bk = L.bk.present() ? L.bk.f32() : nullptr;
    r.bv = L.bv.present() ? L.bv.f32() : nullptr;
    r.qNorm = L.qNorm.present() ? L.qNorm.f32() : nullptr;
    r.kNorm = L.kNorm.present() ? L.kNorm.f32() : nullptr;
    r.eps = cfg_.rmsEps;
    // The kernels see this layer's region as the pool, a block's layer part as the block.
    r.pool = kvPool_.as<uint8_t>() + kv_.layerBase(kvl, numBlocks_);
    r.blockBytes = kv_.layerBytes();
    r.kOff = kv_.kOff();
    r.vOff = kv_.vOff();
    r.kScaleOff = kv_.kScaleOff();
    r.vScaleOff = kv_.vScaleOff();
    r.kvKind = kv_.kind;
    r.rowBytes = static_cast<int>(kv_.rowBytes());
    static const bool skipRope = measureSkips("rope"), skipAttention = measureSkips("attention");

    // RoPE and the KV store in the matrix-vector epilogue where it can run them (F16 KV, adjacent
    // rotation pairs, no per-head norm: GemvParams::rope); LinearOps says whether it did.
    const bool fusable = ropeFusion_ && !skipRope && !r.neox && !r.qNorm && !r.kNorm && r.kvKind == kKvF16 && r.D % 2 == 0;
    bool ropeFused = false;
    HEARTH_TRY(linear_.project(a, qkv, fusable ? &r : nullptr, &ropeFused));
    if (!skipRope && !ropeFused) HEARTH_TRY(cudaStatus(launchRopeStore(r, stream_), "rope and KV store"));

    AttnParams at;
    at.q = q_.as<float>();
    at.out = att_.as<float>();
    at.partO = partO_.as<float>();
    at.partML = partML_.as<float>();
    at.counters = counters_.as<int>();
    at.tiles = meta_.tiles();
    at.seqs = meta_.seqs();
    at.blockTables = meta_.blockTables();
    at.pool = r.pool;
    at.blockBytes = r.blockBytes;
    at.kOff = r.kOff;
    at.vOff = r.vOff;
    at.kScaleOff = r.kScaleOff;
    at.vScaleOff = r.vScaleOff;
    at.rowBytes = r.rowBytes;
    at.kvKind = kv_.kind;
    at.T = T;
    at.Hq = r.Hq;
    at.Hkv = r.Hkv;
    at.D = r.D;
    at.G = static_cast<int>(cfg_.gqaGroup());
    at.tileRows = tileTokens_ * at.G;
    at.partitions = partitions_;
    at.blocksPerPartition = partitionBlocksFor(sh);
    at.scale = 1.0f / std::sqrt(static_cast<float>(cfg_.headDim));
    at.cappedAbove = attnCappedAbove_;
    // Tensor cores where they support the shape (F16 KV), else the decode kernel for decode-like
    // steps; the batch-invariant mode keeps every step on the general kernel, so prefill and decode
    // compute a row alike.
    if (skipAttention) {
    } else if ((partitions_ == 1 ? mmaAttention_ : mmaDecode_) && attentionMmaSupports(at.D, at.kvKind))
        HEARTH_TRY(cudaStatus(launchAttentionMma(at, sh.tiles, stream_), "attention (tensor cores)"));
    else if (decodeAttention_ && attentionDecodeSupports(at.D))
        HEARTH_TRY(cudaStatus(launchAttentionDecode(at, sh.tiles, stream_), "attention (decode)"));
    else
        HEARTH_TRY(cudaStatus(launchAttention(at, sh.tiles, stream_), "attention"));

    const LinearInput o{att_.as<float>(), Q, T, Q};
    const Projection wo[1] = {{&L.wo, x_.as<float>(), E, true}};
    HEARTH_TRY(linear_.project(o, wo));

    const LinearInput f{x_.as<float>(), E, T, E, nullptr, L.ffnNorm.f32(), cfg_.rmsEps};
    HEARTH_TRY(linear_.gatedFfn(f, L.wGate, L.wUp, ffn_.as<float>(), up_.as<float>()));
    const LinearInput d{ffn_.as<float>(), F, T, F};
    const Projection down[1] = {{&L.wDown, x_.as<float>(), E, true}};
    return linear_.project(d, down);
}

Status CudaStage::collect(const StepShape& sh, const Io& io, bool sample) {
    const size_t V = cfg_.nVocab, E = cfg_.nEmbd;
    const size_t R = static_cast<size_t>(sh.realLogitRows);
    if (!head_) {
        if (!io.hiddenOut) return makeError(ErrorCode::Internal, "CUDA stage without the head got no output buffer");
        const size_t n = static_cast<size_t>(sh.realTokens) * E;
        HEARTH_CUDA_TRY(cudaMemcpyAsync(hostOut_.data(), x_.data(), n * 4, cudaMemcpyDeviceToHost, stream_));
        HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
        std::memcpy(io.hiddenOut, hostOut_.data(), n * 4);
        return Status::success();
    }
    if (sample) {
        auto* host = hostOut_.as<int32_t>();
        HEARTH_CUDA_TRY(cudaMemcpyAsync(host, sampled_.data(), R * 4, cudaMemcpyDeviceToHost, stream_));
        HEARTH_CUDA_TRY(cudaMemcpyAsync(host + R, sampled_.as<int32_t>() + capLogits_, R * 4, cudaMemcpyDeviceToHost, stream_));
        HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
        if (!io.tokens) return makeError(ErrorCode::Internal, "sampling without a token buffer");
        io.tokens->assign(host, host + R);
        std::vector<int32_t> flags(host + R, host + 2 * R);
        for (size_t i = 0; i < R; ++i)
            if (flags[i]) HEARTH_TRY(hostSample(static_cast<int>(i), io.sampling[i], (*io.tokens)[i]));
        return Status::success();
    }
    if (!io.logits) return makeError(ErrorCode::Internal, "head stage called without a logits buffer");
    io.logits->resize(R * V);
    if (R) {
        HEARTH_CUDA_TRY(cudaMemcpyAsync(hostOut_.data(), logits_.data(), R * V * 4, cudaMemcpyDeviceToHost, stream_));
        HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
        std::memcpy(io.logits->data(), hostOut_.data(), R * V * 4);
    } else {
        HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    }
    return Status::success();
}

Status CudaStage::hostSample(int row, const Backend::RowSampling& rs, int32_t& token) {
    const size_t V = cfg_.nVocab;
    rowScratch_.resize(V);
    HEARTH_CUDA_TRY(cudaMemcpy(rowScratch_.data(), logits_.as<float>() + static_cast<size_t>(row) * V, V * 4,
                               cudaMemcpyDeviceToHost));
    SamplingParams sp;
    sp.temperature = rs.temperature;
    sp.topK = rs.topK;
    sp.topP = rs.topP;
    sp.minP = rs.minP;
    sp.seed = 0;
    Sampler sampler(sp);
    std::vector<TokenId> banned;
    for (int32_t id : rs.banned)
        if (id >= 0) banned.push_back(id);
    sampler.setBannedTokens(std::move(banned));
    std::vector<Candidate> dist;
    sampler.distribution(rowScratch_.data(), static_cast<int32_t>(V), {}, dist);
    // Sampler::draw with the row's own uniform.
    token = dist.back().id;
    if (dist.size() == 1) {
        token = dist.front().id;
        return Status::success();
    }
    float cum = 0;
    for (const Candidate& c : dist) {
        cum += c.prob;
        if (rs.uniform < cum) {
            token = c.id;
            break;
        }
    }
    return Status::success();
}

// A block on the host is its layers' parts in order (CudaKvLayout); on the device they are a layer
// region apart: one strided copy per block.
Status CudaStage::copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host, uint64_t hostStride) {
    HEARTH_CUDA_TRY(cudaSetDevice(device_));
    const uint64_t lb = kv_.layerBytes(), region = kv_.layerBase(1, numBlocks_);
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i] < 0 || static_cast<uint32_t>(blocks[i]) >= numBlocks_)
            return makeError(ErrorCode::Internal, "copy of KV block " + std::to_string(blocks[i]) + " out of range");
        HEARTH_CUDA_TRY(cudaMemcpy2DAsync(host + i * hostStride, lb, kvPool_.as<uint8_t>() + static_cast<uint64_t>(blocks[i]) * lb,
                                          region, lb, kv_.nLayers, cudaMemcpyDeviceToHost, stream_));
    }
    HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    return Status::success();
}

Status CudaStage::copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host, uint64_t hostStride) {
    HEARTH_CUDA_TRY(cudaSetDevice(device_));
    const uint64_t lb = kv_.layerBytes(), region = kv_.layerBase(1, numBlocks_);
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i] < 0 || static_cast<uint32_t>(blocks[i]) >= numBlocks_)
            return makeError(ErrorCode::Internal, "copy of KV block " + std::to_string(blocks[i]) + " out of range");
        HEARTH_CUDA_TRY(cudaMemcpy2DAsync(kvPool_.as<uint8_t>() + static_cast<uint64_t>(blocks[i]) * lb, region, host + i * hostStride,
                                          lb, lb, kv_.nLayers, cudaMemcpyHostToDevice, stream_));
    }
    HEARTH_CUDA_TRY(cudaStreamSynchronize(stream_));
    return Status::success();
}

namespace {

// Host ranges page-locked for block copies, shared by every stage of the process (one registration
// is valid on every device: cudaHostRegisterPortable), with the number of stages that asked.
std::mutex registeredMutex;
std::map<void*, int> registered;

}  // namespace

void CudaStage::registerHostMemory(void* p, uint64_t bytes) {
    std::lock_guard<std::mutex> lock(registeredMutex);
    auto it = registered.find(p);
    if (it != registered.end()) {
        ++it->second;
        return;
    }
    cudaSetDevice(device_);
    if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) == cudaSuccess) registered.emplace(p, 1);
    else cudaGetLastError();  // best effort: copies from pageable memory still work, only slower
}

void CudaStage::unregisterHostMemory(void* p) {
    std::lock_guard<std::mutex> lock(registeredMutex);
    auto it = registered.find(p);
    if (it == registered.end() || --it->second > 0) return;
    registered.erase(it);
    cudaSetDevice(device_);
    if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
}

uint64_t CudaStage::scratchBytes() const {
    uint64_t n = linear_.bytes() + meta_.bytes();
    for (const DeviceBuffer* b : {&x_, &q_, &k_, &v_, &att_, &ffn_, &up_, &partO_, &partML_, &counters_, &logits_, &sampled_,
                                  &ropeCos_, &ropeSin_})
        n += b->size();
    return n;
}

std::vector<DeviceMemoryStats> CudaStage::memoryStats() const {
    DeviceMemoryStats m;
    m.name = name_;
    m.device = device_;
    size_t freeB = 0, totalB = 0;
    cudaSetDevice(device_);
    if (cudaMemGetInfo(&freeB, &totalB) != cudaSuccess) cudaGetLastError();
    m.total = totalB;
    m.free = freeB;
    m.weights = weights_.bytes();
    m.kvPool = kvPool_.size();
    m.scratch = scratchBytes();
    m.firstLayer = first_;
    m.lastLayer = last_;
    return {m};
}

}  // namespace hearth::cuda
