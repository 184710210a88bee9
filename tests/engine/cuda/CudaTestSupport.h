#pragma once
// Shared helpers of the CUDA backend tests: building backends through the factory (skipping when
// no GPU or no libhearth-cuda is present), running prompts and decode steps, comparing logits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "../TestPaths.h"
#include "../model/ReferenceCases.h"
#include "backend/BackendFactory.h"
#include "cpu/CpuBackend.h"

namespace hearth::test {

struct Loaded {
    std::shared_ptr<GgufFile> file;
    ModelConfig config;
};

inline Loaded loadModel(const std::string& path) {
    Loaded l;
    auto f = GgufFile::open(path);
    EXPECT_TRUE(f.ok()) << path << ": " << (f.ok() ? "" : f.error().message);
    if (!f.ok()) return l;
    l.file = *f;
    auto c = ModelConfig::fromGguf(*l.file);
    EXPECT_TRUE(c.ok());
    if (c.ok()) l.config = *c;
    return l;
}

inline PlacementConfig oneGpu() {
    PlacementConfig p;
    p.devices = {0};
    return p;
}

// The GPU backend for a model file, or an error (Unavailable when there is no GPU).
inline Result<std::unique_ptr<Backend>> gpuBackend(const std::string& path, PlacementConfig placement = oneGpu(),
                                                   uint32_t blocks = 96, KvDType kv = KvDType::F16,
                                                   bool batchInvariant = false) {
    Loaded l = loadModel(path);
    if (!l.file) return makeError(ErrorCode::IoError, "cannot open " + path);
    EngineConfig ec;
    ec.threads = 2;
    ec.maxBatchTokens = 256;
    ec.placement = std::move(placement);
    ec.batchInvariant = batchInvariant;
    ec.contextLength = static_cast<int>(blocks) * kBlockSize;
    auto b = createBackend(ec, l.file, l.config);
    if (!b) return b.error();
    HEARTH_TRY((*b)->allocateKv(blocks, kv));
    return b;
}

inline Result<std::unique_ptr<Backend>> cpuBackend(const std::string& path, uint32_t blocks = 96, KvDType kv = KvDType::F16) {
    Loaded l = loadModel(path);
    if (!l.file) return makeError(ErrorCode::IoError, "cannot open " + path);
    auto b = cpu::CpuBackend::create(l.file, l.config, 2);
    if (!b) return b.error();
    HEARTH_TRY((*b)->allocateKv(blocks, kv));
    return std::unique_ptr<Backend>(std::move(*b));
}

// True when a GPU backend can be made at all (checked once); tests skip otherwise.
inline bool gpuPresent(std::string* why = nullptr) {
    static std::string reason;
    static const bool present = [] {
        auto b = gpuBackend(modelPath("stories260K.gguf"));
        if (!b) reason = b.error().toString();
        return b.ok();
    }();
    if (why) *why = reason;
    return present;
}

#define SKIP_WITHOUT_GPU()                                                     \
    do {                                                                       \
        std::string _why;                                                      \
        if (!::hearth::test::gpuPresent(&_why)) GTEST_SKIP() << "no GPU backend: " << _why; \
    } while (0)

inline std::vector<int32_t> blockRun(int32_t first, int32_t positions) {
    std::vector<int32_t> t;
    for (int32_t i = 0; i * kBlockSize < positions; ++i) t.push_back(first + i);
    return t;
}

// One sequence's slice: returns the logits rows (all tokens when `all`, else the last).
inline std::vector<float> runSlice(Backend& b, const std::vector<int32_t>& tokens, int32_t startPos,
                                   const std::vector<int32_t>& table, bool all = false) {
    ForwardBatch fb;
    fb.addSequence(tokens, startPos, table, all, !all);
    std::vector<float> logits;
    const Status st = b.forward(fb, logits);
    EXPECT_TRUE(st.ok()) << b.name() << ": " << (st.ok() ? "" : st.error().toString());
    return logits;
}

inline int32_t argmax(const float* l, size_t n) { return static_cast<int32_t>(std::max_element(l, l + n) - l); }

inline double relErr(const float* a, const float* ref, size_t n) {
    double num = 0, den = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(a[i]) - ref[i];
        num += d * d;
        den += static_cast<double>(ref[i]) * ref[i];
    }
    if (!std::isfinite(num)) return INFINITY;
    return std::sqrt(num / std::max(den, 1e-30));
}

}  // namespace hearth::test
