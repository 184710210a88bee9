#pragma once
// The engine boundary: load a model, submit generation requests, receive tokens through a sink.
//
// Threading: Engine::create() loads the model and starts the engine thread. submit(), cancel() and
// stats() are thread-safe and never block on generation. Sinks are called on the engine thread and
// must not block; each request gets zero or more onTokens() calls and then exactly one of
// onFinished() or onError(), after which the engine drops its reference to the sink.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hearth/result.h"
#include "hearth/tokenizer.h"

namespace hearth {

using RequestId = uint64_t;

enum class KvDType { F16, Q8_0, FP8_E4M3 };
// The name --kv-type takes for it, and back (nullopt: no such dtype).
inline const char* kvDTypeName(KvDType t) { return t == KvDType::F16 ? "f16" : t == KvDType::Q8_0 ? "q8_0" : "fp8"; }
inline std::optional<KvDType> parseKvDType(std::string_view name) {
    for (KvDType t : {KvDType::F16, KvDType::Q8_0, KvDType::FP8_E4M3})
        if (name == kvDTypeName(t)) return t;
    return std::nullopt;
}

// Where layers run. Empty devices = all layers on the CPU.
struct PlacementConfig {
    std::vector<int> devices;          // CUDA device ordinals, in pipeline order
    std::vector<float> split;          // relative share of layers per device (empty: by free memory)
    int cpuLayers = 0;                 // the last N layers stay on the CPU (offload)
    int logicalDevicesPerGpu = 1;      // test hook: split one GPU into several pipeline stages
};

// Speculative decoding: NGram looks up the request's own tokens (prompt lookup); Index does that and
// falls back to a domain index file (`hearth-cli index build`); Draft runs a small draft model that
// shares the target's tokenizer. Outputs are unchanged (greedy: token for token; sampling: the same
// distribution, and with NGram/Index the same tokens for a seed on the host sampling path).
enum class SpecMethod { None, NGram, Index, Draft };

struct SpecConfig {
    SpecMethod method = SpecMethod::None;
    std::string path;        // index file or draft model
    int maxDraft = 8;        // upper bound on draft tokens per step (1..64); fewer while acceptance is poor
    int minNgram = 1;
    int maxNgram = 4;
    int disableAboveBatch = 16;  // speculation switches off when this many sequences decode at once
    // true: draft lengths per sequence from its acceptance rate and the measured step costs (zero
    // when speculation would not pay); false: always maxDraft drafts where a proposer has them
    // (fixed-length speculation, as vLLM's num_speculative_tokens; reproducible step counts).
    bool adaptive = true;
};

struct EngineConfig {
    std::string modelPath;
    int contextLength = 0;             // 0: the model's own (capped to fit memory)
    int threads = 0;                   // CPU threads; 0: physical cores
    KvDType kvType = KvDType::F16;
    uint64_t kvBytes = 0;              // device KV pool; 0: sized from free memory / max seqs × context
    // Host RAM tier for evicted KV blocks. kRamCacheAuto (the default): a tenth of the memory
    // available when the engine starts, at most 16 GiB; 0: off.
    static constexpr uint64_t kRamCacheAuto = ~0ull;
    uint64_t ramCacheBytes = kRamCacheAuto;
    std::string diskCacheDir;          // empty: no disk tier
    uint64_t diskCacheBytes = 0;
    int maxSeqs = 64;                  // sequences running at once
    int maxBatchTokens = 2048;         // token budget per step
    int prefillChunk = 512;            // longest prefill slice of one sequence per step
    bool prefixCaching = true;
    // A sequence's results do not depend on the other sequences sharing its steps (nor on how its
    // own tokens are grouped into steps), so batched and speculative greedy outputs equal one-at-a-
    // time ones bit for bit. The CPU backend always is; on CUDA this routes every matrix product
    // through the matrix-vector kernels and fixes the attention partitions for `contextLength`:
    // decode speed is unchanged up to 8 tokens per step, prefill and large batches are slower.
    bool batchInvariant = false;
    PlacementConfig placement;
    SpecConfig spec;
    std::string chatTemplateOverride;  // Jinja source replacing the model's template
};

struct SamplingParams {
    float temperature = 0.8f;          // 0: greedy
    int topK = 40;                     // 0: off
    float topP = 0.95f;                // 1: off
    float minP = 0.05f;                // 0: off
    float repeatPenalty = 1.0f;        // 1: off
    int repeatLastN = 64;
    float frequencyPenalty = 0.0f;
    float presencePenalty = 0.0f;
    uint64_t seed = 0xFFFFFFFFFFFFFFFFull;  // all ones: random
    int logprobs = 0;                  // top-N logprobs per generated token (0: none)
};

// Constrains sampling to outputs that parse (response_format json_object / json_schema).
struct OutputConstraint {
    enum class Kind { None, JsonObject, JsonSchema } kind = Kind::None;
    std::string jsonSchema;            // for JsonSchema
};

struct GenerationRequest {
    std::vector<TokenId> promptTokens;  // used when non-empty
    std::string promptText;             // tokenized with the model's rules otherwise
    bool addSpecial = true;             // BOS per metadata when tokenizing promptText
    bool parseSpecial = true;           // special-token text in promptText becomes special tokens
    SamplingParams sampling;
    int maxTokens = 256;                // -1: until context end
    std::vector<std::string> stop;      // stop strings (not included in the output)
    std::vector<TokenId> stopTokens;    // extra end tokens (template end-of-turn)
    bool ignoreEos = false;
    std::string user;                   // fairness key (API key, chat id)
    std::string cacheSalt;              // isolates prefix-cache sharing
    int priority = 0;                   // higher runs first
    OutputConstraint constraint;
};

enum class FinishReason { Stop, Length, Cancelled, Error };
const char* finishReasonName(FinishReason r);

struct TokenLogprob {
    TokenId token;
    float logprob;
    std::vector<std::pair<TokenId, float>> top;  // most likely alternatives
};

struct Usage {
    int promptTokens = 0;
    int completionTokens = 0;
    int cachedPromptTokens = 0;     // prompt tokens served from the prefix cache (any tier)
    int computedPromptTokens = 0;   // prompt tokens actually run through the model
    double ttftMs = 0;              // submit -> first token
    double totalMs = 0;
    double meanItlMs = 0;           // mean inter-token latency
    int draftProposed = 0;          // speculative draft tokens verified for this request
    int draftAccepted = 0;          // of which accepted (output tokens that cost no step of their own)
};

class TokenSink {
public:
    virtual ~TokenSink() = default;
    // New tokens and the text they complete (valid UTF-8; may be empty while a character or a
    // possible stop string is pending). logprobs is non-null when the request asked for them.
    virtual void onTokens(RequestId id, std::span<const TokenId> tokens, std::string_view textDelta,
                          const std::vector<TokenLogprob>* logprobs) = 0;
    virtual void onFinished(RequestId id, FinishReason reason, const Usage& usage) = 0;
    virtual void onError(RequestId id, const Error& error) = 0;
};

struct DeviceMemoryStats {
    std::string name;               // "CPU", "NVIDIA H200", ...
    int device = -1;                // -1: host
    uint64_t total = 0, free = 0;
    uint64_t weights = 0, kvPool = 0, scratch = 0;
    int firstLayer = 0, lastLayer = 0;  // [first, last) layers placed here
};

struct EngineStats {
    int running = 0, waiting = 0, swapped = 0;
    uint64_t kvBlocksTotal = 0, kvBlocksUsed = 0, kvBlocksCached = 0;  // device tier
    uint64_t ramBlocksTotal = 0, ramBlocksUsed = 0;
    uint64_t diskBlocksUsed = 0;
    uint64_t prefixQueryTokens = 0, prefixHitTokensDevice = 0, prefixHitTokensRam = 0, prefixHitTokensDisk = 0;
    double prefillTokPerSec = 0, decodeTokPerSec = 0;  // over the last few seconds
    uint64_t totalPromptTokens = 0, totalGeneratedTokens = 0, totalRequests = 0;
    uint64_t preemptions = 0, steps = 0;
    uint64_t draftProposed = 0, draftAccepted = 0;  // draft tokens the target verified / accepted, all proposers
    // The same per proposer: the request's own tokens (n-gram), the domain index, the draft model.
    uint64_t draftProposedNgram = 0, draftAcceptedNgram = 0;
    uint64_t draftProposedIndex = 0, draftAcceptedIndex = 0;
    uint64_t draftProposedModel = 0, draftAcceptedModel = 0;
    uint64_t specSteps = 0;  // steps that verified draft tokens
    double ttftP50Ms = 0, ttftP95Ms = 0, itlP50Ms = 0, itlP95Ms = 0;
    std::vector<DeviceMemoryStats> devices;
};

class Engine {
public:
    // Progress in [0,1] during load; return false to cancel the load.
    using LoadProgress = bool (*)(float progress, void* user);

    static Result<std::unique_ptr<Engine>> create(const EngineConfig& config, LoadProgress progress = nullptr,
                                                  void* progressUser = nullptr);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    RequestId submit(GenerationRequest request, std::shared_ptr<TokenSink> sink);
    void cancel(RequestId id);
    EngineStats stats() const;

    const Tokenizer& tokenizer() const;
    std::shared_ptr<const Tokenizer> tokenizerPtr() const;
    const std::string& modelPath() const;
    std::string modelName() const;
    int contextLength() const;
    // The model's chat template (or the override); empty when it has none.
    const std::string& chatTemplate() const;

    struct Impl;

private:
    explicit Engine(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace hearth
