#pragma once
// Paths to the shared models and reference data (../shared beside the checkout; override with the
// HEARTH_SHARED environment variable, as the GPU machine does with a carried copy).
#include <cstdlib>
#include <string>

namespace hearth::test {

inline std::string sharedDir() {
    if (const char* env = std::getenv("HEARTH_SHARED")) return env;
    return HEARTH_SHARED_DIR;
}
inline std::string modelPath(const std::string& name) { return sharedDir() + "/models/" + name; }
inline std::string testdataPath(const std::string& rel) { return sharedDir() + "/testdata/" + rel; }
inline std::string sourcePath(const std::string& rel) { return std::string(HEARTH_SOURCE_DIR) + "/" + rel; }

}  // namespace hearth::test
