#pragma once
// ggml tensor types as GGUF stores them (the numeric ids are the file format; never renumber).
//
// Invariants: every id the table knows has blockSize >= 1 and typeSize >= 1; a row of n elements of
// type t occupies n / blockSize(t) * typeSize(t) bytes and n must be a multiple of blockSize(t).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hearth {

enum class TensorType : uint32_t {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22,
    IQ4_XS = 23, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30,
    TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
};

struct TensorTypeTraits {
    std::string_view name;  // as llama.cpp prints it: "q4_K", "f16", ...
    uint32_t blockSize;     // elements per block
    uint32_t typeSize;      // bytes per block
    bool quantized;
};

// Traits for a raw id read from a file; nullopt when the id is not a type we know.
std::optional<TensorTypeTraits> tensorTypeTraits(uint32_t rawId);
TensorTypeTraits traits(TensorType t);
std::string_view tensorTypeName(TensorType t);
std::optional<TensorType> tensorTypeFromName(std::string_view name);  // case-insensitive

// Bytes of a row of n elements; nullopt when n is not a multiple of the block size.
std::optional<uint64_t> rowBytes(TensorType t, uint64_t n);

}  // namespace hearth
