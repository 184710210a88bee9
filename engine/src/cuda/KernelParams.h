#pragma once
// Plain parameter structs shared by the host orchestration (.cpp, g++) and the kernels (.cu, nvcc),
// and the launch functions the kernels export. No engine headers here: the .cu files compile
// against this header and the CUDA headers only.
//
// Conventions: activations are row-major [T][cols] f32 unless a format says otherwise; weight
// type ids are GGUF's (TensorType); "units" are 32 consecutive elements of a row; every pointer is
// device memory unless named host*.

#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

namespace hearth::cuda {

// Activation formats a matrix multiply consumes (chosen from the weight type, see ActFormat.h).
enum ActFmt : int {
    kActF32 = 0, kActF16 = 1, kActBF16 = 2,
    kActQ8_0 = 3, kActQ8_1 = 4, kActQ8_K = 5,         // int8 values + per-unit scale (+ Q8_1 sums)
    kActFQ8_0 = 6, kActFQ8_1 = 7, kActFQ8_K = 8,      // the same quantization, written back as f16 values
};

// KV cache element kinds (match KvDType's meaning; the layout is CudaKvLayout's).
enum KvKind : int { kKvF16 = 0, kKvQ8_0 = 1, kKvFP8 = 2 };

struct ActPrepParams {
    const float* x = nullptr;
    int64_t ldx = 0;                 // row stride of x (floats)
    const int32_t* rowIndex = nullptr;  // optional gather: output row r reads x row rowIndex[r]
    int rows = 0, cols = 0;
    const float* normW = nullptr;    // RMSNorm weight; null: no norm
    float eps = 0;
    int fmt = kActF32;
    float* outF32 = nullptr;         // [rows][cols]
    void* outHalf = nullptr;         // [rows][cols] f16 or bf16
    int8_t* outQ = nullptr;          // [rows][cols]
    float* outScale = nullptr;       // [rows][cols/32]
    float* outSum = nullptr;         // [rows][cols/32]: Q8_1 d * sum(q); Q8_K (as int32) the sums of
                                     // q over each half unit, low / high 16 bits
    // FQ8_K only, when set: the Q8_K form too (outQ, outScale) and f16 d * sum(q) per unit here
    // ([rows][cols/32]), for the integer tensor-core kernel (QuantMmaI8.cu).
    __half* outUnitSum = nullptr;
    // FQ8 formats: the f16 values in the MMA unit order of MmaWeightTiles.cuh (element 8t + 2j + b
    // of each 32-element unit stored at 8j + 2t + b), which the warpgroup kernel (QuantWgmma.cu)
    // reads; only that kernel may read such an input.
    int mmaUnitOrder = 0;
};

struct GemvSeg {
    const uint8_t* w = nullptr;
    float* y = nullptr;
    int rows = 0;
    int ldy = 0;
    int ctaBegin = 0;  // first CTA of this segment
};

struct RopeStoreParams {
    float* q = nullptr;              // [T][Hq*D], rotated in place
    const float* k = nullptr;        // [T][Hkv*D]
    const float* v = nullptr;        // [T][Hkv*D]
    int T = 0, Hq = 0, Hkv = 0, D = 0;
    int ropePairs = 0, neox = 0;
    const float* ropeCos = nullptr;  // [position][ropePairs]
    const float* ropeSin = nullptr;
    const int32_t* tokenPos = nullptr;
    const int32_t* tokenSlot = nullptr;  // block * 16 + offset, or -1 (padding: nothing stored)
    const float *bq = nullptr, *bk = nullptr, *bv = nullptr;
    const float *qNorm = nullptr, *kNorm = nullptr;
    float eps = 0;
    uint8_t* pool = nullptr;
    uint64_t blockBytes = 0, kOff = 0, vOff = 0, kScaleOff = 0, vScaleOff = 0;
    int kvKind = kKvF16;
    int rowBytes = 0;
};

// RoPE and the KV store can run in the epilogue of the Q/K/V matrix-vector launches (steps whose
// projections take those kernels: decode, verification, short prefill; CudaStage::enqueueLayer):
// the warp that owns rows 2i and 2i + 1 of a head owns their rotation pair when the pairs are
// adjacent (normal RoPE), so it adds the biases, rotates, writes Q back and stores K / V straight
// into their F16 KV rows, with ropeStoreKernel's operations in its order (the launch carries that
// kernel's RopeStoreParams). Only for F16 KV, normal pairs, no per-head Q/K norm (those need the
// whole head: ropeStoreKernel).

struct GemvParams {
    int type = 0;                    // weight TensorType id
    int cols = 0, T = 0;
    int64_t rowBytes = 0;
    int copyWidth = 16;              // alignment of weight rows in bytes (16, 8, 4 or 2)
    const int8_t* actQ = nullptr;    // quantized weights: [T][cols] int8
    const float* actScale = nullptr; // [T][cols/32]
    const float* actSum = nullptr;   // [T][cols/32]: Q8_1 d * sum; Q8_K two int16 sums of 16 per word
    const void* actDense = nullptr;  // dense weights: [T][cols] f16 / bf16 / f32
    GemvSeg seg[3];
    int nSeg = 1;
    int mode = 0;                    // 0: y = W x; 1: y += W x; 2: seg0.y = silu(W0 x) * (W1 x)
    int rowsPerWarp = 2;             // modes 0/1: 1 or 2 (mode 2 always pairs gate and up rows)
    // One-token launches of the dense kernel (2-byte weights) copy the token's input row to shared
    // memory once per CTA and read it there: same values, same order (DenseGemv.cu). LinearOps
    // clears it under HEARTH_CUDA_NO_STAGED_INPUT (measuring, tests).
    int stageInput = 1;
    // One- and two-token launches of the dense kernel (2-byte weights, 16-byte rows) on the
    // streamed form (DenseStreamGemv.cu): 0 off, 1 cp.async, 2 bulk copies (sm_90); streamStages pieces
    // per warp in the ring (2-4 with cp.async, 2-8 with bulk copies; 4 by default: 3 and 5 were
    // slower on the H200, 235.7 and 238.9 against 240.4 tok/s at llama8b F16 batch 1). With 2, the
    // Q4_K / Q5_K / Q6_K kernel's one- and two-token launches copy their pieces by bulk copies too.
    int streamWeights = 0;
    int streamStages = 4;
    int streamMaxCtas = 0;           // a cap on its persistent launch's CTAs (0: what is resident)
    // The input's preparation done by the launch itself (fusedPrep 1; f16 / bf16 formats): the
    // streamed kernel prepares each token's row into its shared memory (the preparation kernel's
    // code and order, so bit-identical) and its first CTA also writes it to prep.outHalf for later
    // launches; where the streamed kernel does not take the launch, the preparation runs first.
    ActPrepParams prep;
    int fusedPrep = 0;
    RopeStoreParams rope;            // the fused RoPE / KV store (mode 0, rowsPerWarp 2), for segments
    int ropeRole[3] = {-1, -1, -1};  // with a role: 0 Q (rotated, written to y), 1 K, 2 V (to the pool)
    int measureSkipMath = 0;         // HEARTH_CUDA_SKIP=kqmath (MeasureSkips.h): the k-quant kernel only copies weights
};
constexpr int kGemvMaxT = 8;          // largest token count the matrix-vector kernels take
constexpr int kDenseGemvMaxT = 4;     // ... and the one LinearOps gives them for dense weights
constexpr int kDecodeGemvMaxT = 2;    // ... and for quantized ones in decode steps (LinearOps::setStepKind)
constexpr int kVerifyGemvMaxT = 16;   // ... and in verification steps (two slices of kGemvMaxT)
constexpr int kGemvWarpsPerCta = 4;   // output rows per CTA: 4 * rowsPerWarp (4 in mode 2)

// Tensor-core path of quantized weights for kGemvMaxT < T <= kMmaMaxT tokens: up to three
// matrices of one type and width sharing the input (a segment each, like GemvParams), or a gate /
// up pair whose SiLU product is the output (mode 2).
struct MmaSeg {
    const uint8_t* w = nullptr;
    float* y = nullptr;
    int rows = 0, ldy = 0;
    int ctaBegin = 0;   // first CTA (blockIdx.x) of this segment
    int rowOffset = 0;  // first row of this segment in the split-K partial sums
};

struct MmaParams {
    int type = 0;
    int64_t rowBytes = 0;
    int cols = 0;                    // a multiple of 256
    const __half* x = nullptr;       // [T][cols] f16 inputs (an FQ8 format)
    int T = 0;
    MmaSeg seg[3];
    int nSeg = 1;
    int mode = 0;                    // 0: y = W x; 1: y += W x; 2: seg[0].y = silu(W0 x) * (W1 x), seg 1 the up matrix
    int totalRows = 0;               // rows of all segments (2 * rows in mode 2)
    float* partial = nullptr;        // [splits][T][totalRows] when the K range is split
    int stages = 2;                  // K steps in flight (quantMmaPlan)
    int measureSkipMath = 0;         // HEARTH_CUDA_SKIP=mmamath (MeasureSkips.h): only the copies run
    // Measuring only (HEARTH_CUDA_SKIP=mmaw / mmax): the weights are not copied / no token's inputs are.
    int skipWeightCopies = 0;
    int skipInputCopies = 0;
    int copyTokens = 0;              // set by the launch: T, or 0 with skipInputCopies
    int bulkWeights = 0;             // the warpgroup form's weights by bulk copies (LinearOps: on unless HEARTH_CUDA_MMA_BULK=0)
    // The integer form (launchQuantMmaI8) reads the Q8_K form of the same inputs instead of x:
    const int8_t* xq = nullptr;      // [T][cols]
    const float* xScale = nullptr;   // [T][cols/32] (one value per 256)
    const __half* xUnitSum = nullptr;  // [T][cols/32] f16 scale * sum of the unit's int8 values
};

// How a launch of T tokens runs on a device with `sharedOptin` bytes of shared memory per block and
// `sharedPerSm` per multiprocessor: stages in flight, tokens per launch (0: the path cannot run
// this type there), CTAs resident per multiprocessor.
struct MmaPlan {
    int stages = 0, maxT = 0, ctasPerSm = 1;
};
constexpr int kMmaMaxT = 64;

struct AttnTile {
    int seq;          // index into seqs
    int tokenBegin;   // first batch token of the tile
    int numTokens;
};

struct AttnSeq {
    int tokenBegin, numTokens, startPos, blockBegin;
};

struct AttnParams {
    const float* q = nullptr;        // [T][Hq*D]
    float* out = nullptr;            // [T][Hq*D]
    float* partO = nullptr;          // [T*Hq][P][D] when P > 1
    float* partML = nullptr;         // [T*Hq][P][2]
    int* counters = nullptr;         // [tiles][Hkv], zero between launches (the kernel resets them)
    const AttnTile* tiles = nullptr;
    const AttnSeq* seqs = nullptr;
    const int32_t* blockTables = nullptr;
    const uint8_t* pool = nullptr;
    uint64_t blockBytes = 0, kOff = 0, vOff = 0, kScaleOff = 0, vScaleOff = 0;
    int rowBytes = 0, kvKind = kKvF16;
    int T = 0, Hq = 0, Hkv = 0, D = 0, G = 0;
    int tileRows = 0;                // rows (token × head) per tile, <= 32
    int partitions = 1;
    int blocksPerPartition = 4;      // KV blocks per partition while the context fits P of them
    float scale = 1;
    int cappedAbove = 1 << 30;       // split-keys launches (head size 128) of more CTAs take the register-capped kernel
};
constexpr int kAttnMaxRows = 32;
constexpr int kAttnMaxHeadDim = 256;
constexpr int kAttnMaxPartitions = 32;

struct SampleRow {
    float temperature, topP, minP, uniform;
    int topK;
    int banned[4];  // token ids never drawn, -1 for none (Backend::RowSampling::banned)
};

struct SampleParams {
    const float* logits = nullptr;   // [rows][vocab]
    int vocab = 0;
    const SampleRow* rows = nullptr;
    int32_t* tokens = nullptr;       // [rows]
    int32_t* fallback = nullptr;     // [rows]: 1 when the row needs the host sampler
};
constexpr int kSampleCap = 1024;     // candidates the device sorts per row

// What the code this library runs on the current device was compiled for (kernels/Launch.cu): the
// device's own architecture where the library carries it, else the newest older one whose PTX the
// driver compiled at load (a build for 80/86/89/90a on a Blackwell card runs compute_89 code).
// Features of sm_90 code (PDL, bulk copies) and of sm_90a code (warpgroup MMAs) are chosen by it,
// never by the device's compute capability: in older code those instructions compile to nothing.
struct DeviceCode {
    int arch = 0;        // __CUDA_ARCH__ of that code (900 for sm_90 and sm_90a)
    bool sm90a = false;  // built for sm_90a: the architecture-specific features are there
};
cudaError_t probeDeviceCode(DeviceCode& code);
// Programmatic dependent launch (kernels/Launch.cuh): on for a device whose code (probeDeviceCode)
// is sm_90 or newer unless HEARTH_CUDA_NO_PDL is set; set once per device before its first launch.
void enablePdl(int device, int codeArch);  // codeArch: DeviceCode::arch
bool pdlEnabled();  // for the current device

// Launchers (return the launch error, cudaSuccess otherwise).
cudaError_t launchActPrep(const ActPrepParams& p, cudaStream_t s);
cudaError_t launchGemv(const GemvParams& p, int grid, cudaStream_t s);
// Once per device before the streamed dense kernel's first launch (its shared-memory limit).
cudaError_t prepareDenseStream(int sharedOptin);
// The streamed dense kernel (DenseStreamGemv.cu): launches p and returns true (err: the launch's
// error) where it takes it, else returns false and launches nothing.
bool launchDenseStreamGemv(const GemvParams& p, int grid, cudaStream_t s, cudaError_t& err);
bool gemvSupports(int type);
// The lean matrix-vector kernel for Q4_K / Q5_K / Q6_K (KQuantGemv.cu); launchGemv picks it for
// those types unless HEARTH_CUDA_GENERIC_GEMV is set (measuring).
bool kquantGemvSupports(int type, int cols, int64_t rowBytes);
cudaError_t launchKQuantGemv(const GemvParams& p, int grid, cudaStream_t s);
// Rows [rowBegin, rowBegin + nRows) of w (or rows rowIndex[0..nRows) when rowIndex is set) as
// f32 (toHalf false) or f16, [nRows][cols].
cudaError_t launchDequantRows(int type, const uint8_t* w, int64_t rowBytes, int cols, const int32_t* rowIndex,
                              int64_t rowBegin, int nRows, void* out, bool toHalf, cudaStream_t s);
bool dequantSupports(int type);
cudaError_t launchRopeStore(const RopeStoreParams& p, cudaStream_t s);
cudaError_t prepareAttention();  // once per device, before the first launchAttention
cudaError_t launchAttention(const AttnParams& p, int nTiles, cudaStream_t s);
// The tensor-core kernel for steps with one partition (prefill-sized), where it supports the head
// size and KV kind (kernels/AttentionMma.cu).
bool attentionMmaSupports(int D, int kvKind);
// CTAs of the uncapped split-keys kernel (head size 128) resident at once on the current device (0
// where the runtime cannot say): launches of more take the register-capped one (AttnParams::cappedAbove).
int attentionMmaResidentCtas(int kvKind);
cudaError_t launchAttentionMma(const AttnParams& p, int nTiles, cudaStream_t s);
// The kernel for decode-like steps (any partition count; kernels/AttentionDecode.cu).
bool attentionDecodeSupports(int D);
cudaError_t launchAttentionDecode(const AttnParams& p, int nTiles, cudaStream_t s);
// Once per device: opt in to the shared memory the kernels need; an error means the device cannot
// run this path (the caller keeps using cuBLAS).
cudaError_t prepareQuantMma(int sharedOptin);
MmaPlan quantMmaPlan(int type, int T, int sharedOptin, int sharedPerSm);
// Splits of the K range so that `ctas` CTAs (over all segments) fill the device, at most `maxSplits`.
int quantMmaSplits(int ctas, int cols, int multiProcessors, int ctasPerSm, int maxSplits);
// The plan of either tensor-core form (QuantMma.cu), from its dynamic shared memory `bytes` of a
// launch of T tokens with `stages` stages and its static shared memory. HEARTH_CUDA_MMA_STAGES=2..4
// (measuring) sets the stages where they fit.
MmaPlan planMmaLaunch(int type, int T, int sharedOptin, int sharedPerSm, int staticSmem,
                      size_t (*bytes)(int type, int T, int stages));
int quantMmaCtas(int rows, int mode);  // CTAs of one segment (mode 2: of the pair)
cudaError_t launchQuantMma(const MmaParams& p, int splits, cudaStream_t s);
// Adds the split-K partial sums of a launch with `splits` > 1 in split order (both forms).
cudaError_t launchMmaSplitReduce(const MmaParams& p, int splits, cudaStream_t s);
// The warpgroup form (QuantWgmma.cu, sm_90a): Q8_0, Q4_K, Q5_K, Q6_K weights, 17..64 tokens in one
// launch, inputs in MMA unit order (ActPrepParams::mmaUnitOrder); prepare fails
// (cudaErrorNotSupported) where the device's code is not sm_90a (`code`, probeDeviceCode).
bool quantWgmmaSupports(int type);
cudaError_t prepareQuantWgmma(int sharedOptin, const DeviceCode& code);
MmaPlan quantWgmmaPlan(int type, int T, int sharedOptin, int sharedPerSm);
cudaError_t launchQuantWgmma(const MmaParams& p, int splits, cudaStream_t s);
// The integer form for Q4_K and Q5_K weights (QuantMmaI8.cu): the same launch shapes and epilogues.
bool quantMmaI8Supports(int type);
cudaError_t prepareQuantMmaI8(int sharedOptin);
MmaPlan quantMmaI8Plan(int type, int T, int sharedOptin, int sharedPerSm);
cudaError_t launchQuantMmaI8(const MmaParams& p, int splits, cudaStream_t s);
cudaError_t launchSiluMul(float* g, const float* u, int64_t n, cudaStream_t s);
cudaError_t launchSample(const SampleParams& p, int rows, cudaStream_t s);
cudaError_t launchCopyRows(float* dst, const float* src, const int32_t* rowIndex, int rows, int cols, cudaStream_t s);

}  // namespace hearth::cuda
