#pragma once
// Hyperparameters of a decoder-only transformer, read from GGUF metadata.
//
// Invariants after fromGguf() succeeds: nLayers, nEmbd, nHead, nHeadKv, headDim, nFf, nVocab > 0;
// nHead is a multiple of nHeadKv (GQA groups are whole); ropeDims is even and <= headDim; the
// architecture is one the engine can run.

#include <cstdint>
#include <string>
#include <vector>

#include "gguf/GgufFile.h"
#include "hearth/result.h"

namespace hearth {

enum class Arch { Llama, Qwen2, Qwen3 };
enum class RopeStyle { Normal, NeoX };  // Normal rotates (x[2i], x[2i+1]); NeoX rotates (x[i], x[i+d/2])

struct ModelConfig {
    Arch arch = Arch::Llama;
    std::string archName;
    std::string name;
    uint32_t nLayers = 0;
    uint32_t nEmbd = 0;
    uint32_t nHead = 0;
    uint32_t nHeadKv = 0;
    uint32_t headDim = 0;     // key/value length per head
    uint32_t nFf = 0;
    uint32_t nVocab = 0;
    uint32_t nCtxTrain = 0;
    float rmsEps = 1e-5f;
    float ropeFreqBase = 10000.0f;
    float ropeFreqScale = 1.0f;  // linear scaling: positions are multiplied by this
    uint32_t ropeDims = 0;
    RopeStyle ropeStyle = RopeStyle::Normal;
    bool qkvBias = false;        // qwen2
    bool qkNorm = false;         // qwen3: per-head RMSNorm on Q and K before RoPE
    bool hasRopeFreqs = false;   // llama3-style frequency factors tensor (rope_freqs.weight)

    static Result<ModelConfig> fromGguf(const GgufFile& f);
    uint32_t gqaGroup() const { return nHead / nHeadKv; }
    uint32_t qDim() const { return nHead * headDim; }
    uint32_t kvDim() const { return nHeadKv * headDim; }
};

// Architectures fromGguf() accepts.
const std::vector<std::string>& runnableArchitectures();

}  // namespace hearth
