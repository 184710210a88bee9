#pragma once
// What a GGUF file holds, read from its header only (no weights are loaded). Used by `hearth-cli
// info`, the model library and the load dialog's memory estimate.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hearth/result.h"

namespace hearth {

struct ModelInfo {
    std::string path;
    uint64_t fileSize = 0;
    uint32_t ggufVersion = 0;
    std::string architecture;  // general.architecture
    std::string name;          // general.name (may be empty)
    std::string fileType;      // "F16", "Q4_K_M", ... from general.file_type, else from the histogram
    uint64_t parameterCount = 0;
    uint32_t layers = 0;
    uint32_t embeddingLength = 0;
    uint32_t feedForwardLength = 0;
    uint32_t heads = 0;
    uint32_t kvHeads = 0;
    uint32_t headDim = 0;
    uint32_t contextLength = 0;
    uint32_t vocabSize = 0;
    bool supported = false;        // an architecture the engine can run
    std::string tokenizerModel;    // tokenizer.ggml.model
    std::string tokenizerPre;      // tokenizer.ggml.pre
    bool hasChatTemplate = false;
    std::string chatTemplate;
    std::map<std::string, uint64_t> tensorTypeCounts;  // type name -> number of tensors
    std::map<std::string, uint64_t> tensorTypeBytes;   // type name -> bytes
    uint64_t weightBytes = 0;
    // Every metadata key with a short display form of its value (long arrays summarised).
    std::vector<std::pair<std::string, std::string>> metadata;

    // KV bytes per token for a given KV element size (2 for F16, ~1.06 for Q8_0, 1 for FP8).
    double kvBytesPerToken(double bytesPerElement) const;
};

Result<ModelInfo> inspectModel(const std::string& path);

// The architectures this build of the engine can run ("llama", "qwen2", "qwen3", ...).
std::vector<std::string> supportedArchitectures();

}  // namespace hearth
