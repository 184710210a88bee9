#pragma once
// Quantizing a GGUF model file into a llama.cpp-compatible mix ("Q4_K_M", "Q8_0", ...).
//
// The output keeps every metadata key of the input (general.file_type and
// general.quantization_version are set for the mix) and every tensor in input order. Tensors that
// the mix leaves alone (norms, biases, other 1-D tensors) are copied byte for byte. The output
// appears at outputPath only when complete; a failure or a cancel leaves nothing behind.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hearth/result.h"

namespace hearth {

struct QuantizeProgress {
    size_t index = 0;        // tensors finished before this one
    size_t count = 0;        // tensors in the file
    std::string name;        // the tensor being written
    std::string fromType;    // "f16", "q8_0", ... (as llama.cpp prints types)
    std::string toType;
    std::vector<uint64_t> dims;
};

struct QuantizeParams {
    std::string inputPath;
    std::string outputPath;
    std::string mix;   // one of quantizeMixNames(), case-insensitive
    int threads = 0;   // <= 0: every core
    // Called before each tensor is written; returning false cancels (the result is Cancelled).
    std::function<bool(const QuantizeProgress&)> progress;
};

struct QuantizeReport {
    uint64_t inputBytes = 0, outputBytes = 0;  // file sizes
    size_t tensors = 0;                        // tensors written
    size_t converted = 0;                      // tensors whose type changed
    std::map<std::string, size_t> typeCounts;  // output tensor types
    uint32_t fileType = 0;                     // general.file_type written
};

// "F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K_S", "Q3_K_M",
// "Q3_K_L", "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K".
std::vector<std::string> quantizeMixNames();

Result<QuantizeReport> quantizeModel(const QuantizeParams& params);

}  // namespace hearth
