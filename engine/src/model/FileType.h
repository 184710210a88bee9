#pragma once
// llama.cpp's general.file_type values (the "mix" a quantized file was made with).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hearth {

// "Q4_K_M" for 15, ... ; empty when unknown.
std::string fileTypeName(uint32_t fileType);
std::optional<uint32_t> fileTypeFromName(std::string_view name);  // case-insensitive

}  // namespace hearth
