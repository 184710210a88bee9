#pragma once
// A quantization mix: which tensor type each tensor of a model gets, after llama.cpp's rules for
// the same mix names (so our files have the layout users expect from "Q4_K_M" and friends).
//
// Invariants: a mix is one of the names in quantizeMixNames(); typeFor() returns a type that the
// quantizers support and whose block size divides the tensor's row length (k-quants fall back to
// 32-element types, those to F16), or the tensor's own type when the mix leaves it alone.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/TensorType.h"
#include "hearth/result.h"

namespace hearth::quant {

// What a mix needs to know about one tensor and its model.
struct TensorSlot {
    std::string name;
    TensorType type = TensorType::F32;
    std::vector<uint64_t> dims;  // ggml order: dims[0] is the row length
    int layer = -1;              // N of "blk.N.", -1 otherwise
    int layers = 0;              // blocks in the model
    int gqa = 1;                 // query heads per KV head
    bool hasOutput = true;       // the model has its own output.weight (not tied to token_embd)
};

class QuantMix {
public:
    static Result<QuantMix> fromName(std::string_view name);
    static std::vector<std::string> names();

    const std::string& name() const { return name_; }
    uint32_t fileType() const { return fileType_; }  // llama.cpp's general.file_type value
    TensorType baseType() const { return base_; }

    // Whether the mix converts this tensor at all (2-D+ weights; never norms, biases, routers).
    bool converts(const TensorSlot& t) const;
    TensorType typeFor(const TensorSlot& t) const;

private:
    TensorType ruleType(const TensorSlot& t) const;

    std::string name_;
    uint32_t fileType_ = 0;
    TensorType base_ = TensorType::F32;
};

}  // namespace hearth::quant
