// Weight types the shared reference models do not contain (Q4_1, Q5_0, Q5_1, BF16): the test
// re-encodes tiny-llama-f16's matrices into each type, and writes a twin whose matrices hold the
// exact dequantized values as F32. The GPU run of each file must agree with the GPU run of its
// twin up to the activation rounding the type implies (Q8 activations, bf16 inputs): a misread
// block layout would be far off.
#include <cstdio>
#include <cstring>

#include "CudaTestSupport.h"
#include "core/Half.h"
#include "gguf/GgufWriter.h"

using namespace hearth;
using namespace hearth::test;

namespace {

void putHalf(std::vector<uint8_t>& out, float v) {
    const f16_t h = f32ToF16(v);
    out.push_back(static_cast<uint8_t>(h & 0xFF));
    out.push_back(static_cast<uint8_t>(h >> 8));
}

// Encodes one row of 32-element blocks; `values` receives what the block decodes to.
void encodeRow(TensorType t, const float* x, int64_t n, std::vector<uint8_t>& out, std::vector<float>& values) {
    if (t == TensorType::BF16) {
        for (int64_t i = 0; i < n; ++i) {
            const bf16_t b = f32ToBf16(x[i]);
            out.push_back(static_cast<uint8_t>(b & 0xFF));
            out.push_back(static_cast<uint8_t>(b >> 8));
            values.push_back(bf16ToF32(b));
        }
        return;
    }
    for (int64_t b0 = 0; b0 < n; b0 += 32) {
        const float* v = x + b0;
        float lo = v[0], hi = v[0], amax = 0, signedMax = 0;
        for (int i = 0; i < 32; ++i) {
            lo = std::min(lo, v[i]);
            hi = std::max(hi, v[i]);
            if (std::fabs(v[i]) > amax) { amax = std::fabs(v[i]); signedMax = v[i]; }
        }
        int q[32];
        if (t == TensorType::Q5_0) {
            const float d = signedMax / -16.0f, id = d != 0 ? 1.0f / d : 0.0f;
            const float dh = f16ToF32(f32ToF16(d));
            for (int i = 0; i < 32; ++i) q[i] = std::clamp(static_cast<int>(std::lround(v[i] * id + 16.0f)), 0, 31);
            putHalf(out, d);
            uint32_t qh = 0;
            for (int i = 0; i < 32; ++i) qh |= static_cast<uint32_t>((q[i] >> 4) & 1) << i;
            for (int k = 0; k < 4; ++k) out.push_back(static_cast<uint8_t>(qh >> (8 * k)));
            for (int i = 0; i < 16; ++i) out.push_back(static_cast<uint8_t>((q[i] & 15) | ((q[i + 16] & 15) << 4)));
            for (int i = 0; i < 32; ++i) values.push_back(static_cast<float>(q[i] - 16) * dh);
            continue;
        }
        const int levels = t == TensorType::Q4_1 ? 15 : 31;
        const float d = (hi - lo) / levels, id = d != 0 ? 1.0f / d : 0.0f;
        const float dh = f16ToF32(f32ToF16(d)), mh = f16ToF32(f32ToF16(lo));
        for (int i = 0; i < 32; ++i) q[i] = std::clamp(static_cast<int>(std::lround((v[i] - lo) * id)), 0, levels);
        putHalf(out, d);
        putHalf(out, lo);
        if (t == TensorType::Q5_1) {
            uint32_t qh = 0;
            for (int i = 0; i < 32; ++i) qh |= static_cast<uint32_t>((q[i] >> 4) & 1) << i;
            for (int k = 0; k < 4; ++k) out.push_back(static_cast<uint8_t>(qh >> (8 * k)));
        }
        for (int i = 0; i < 16; ++i) out.push_back(static_cast<uint8_t>((q[i] & 15) | ((q[i + 16] & 15) << 4)));
        for (int i = 0; i < 32; ++i) values.push_back(static_cast<float>(q[i]) * dh + mh);
    }
}

// Writes `type` and its F32 twin from the F16 source; returns {typed path, twin path}.
std::pair<std::string, std::string> writePair(const GgufFile& src, TensorType type) {
    const std::string base = ::testing::TempDir() + "/hearth-" + std::string(tensorTypeName(type));
    GgufWriter typed, twin;
    for (const auto& [k, v] : src.metadata()) {
        EXPECT_TRUE(typed.setMetadata(k, v).ok());
        EXPECT_TRUE(twin.setMetadata(k, v).ok());
    }
    for (const GgufTensorInfo& t : src.tensors()) {
        const uint8_t* data = src.tensorData(t);
        if (t.type != TensorType::F16) {  // norms stay f32
            std::vector<uint8_t> raw(data, data + t.byteSize);
            EXPECT_TRUE(typed.addTensor(t.name, t.type, t.dims, raw).ok());
            EXPECT_TRUE(twin.addTensor(t.name, t.type, t.dims, raw).ok());
            continue;
        }
        const int64_t cols = static_cast<int64_t>(t.dims[0]), rows = static_cast<int64_t>(t.rows());
        std::vector<float> row(cols), values;
        std::vector<uint8_t> enc;
        for (int64_t r = 0; r < rows; ++r) {
            const auto* h = reinterpret_cast<const f16_t*>(data) + r * cols;
            for (int64_t i = 0; i < cols; ++i) row[i] = f16ToF32(h[i]);
            encodeRow(type, row.data(), cols, enc, values);
        }
        std::vector<uint8_t> f32(values.size() * 4);
        std::memcpy(f32.data(), values.data(), f32.size());
        EXPECT_TRUE(typed.addTensor(t.name, type, t.dims, std::move(enc)).ok());
        EXPECT_TRUE(twin.addTensor(t.name, TensorType::F32, t.dims, std::move(f32)).ok());
    }
    EXPECT_TRUE(typed.write(base + ".gguf").ok());
    EXPECT_TRUE(twin.write(base + "-twin.gguf").ok());
    return {base + ".gguf", base + "-twin.gguf"};
}

}  // namespace

TEST(CudaTypes, LegacyAndBf16WeightsMatchTheirDequantizedTwins) {
    SKIP_WITHOUT_GPU();
    auto src = GgufFile::open(modelPath("tiny-llama-f16.gguf"));
    ASSERT_TRUE(src.ok());
    std::vector<int32_t> seq = {1, 403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315, 421, 395, 317, 426};
    for (TensorType type : {TensorType::Q4_1, TensorType::Q5_0, TensorType::Q5_1, TensorType::BF16}) {
        const auto [typed, twin] = writePair(**src, type);
        auto a = gpuBackend(typed), b = gpuBackend(twin);
        ASSERT_TRUE(a.ok()) << a.error().toString();
        ASSERT_TRUE(b.ok()) << b.error().toString();
        const size_t V = (*a)->vocabSize();
        double worst = 0;
        int same = 0, rows = 0;
        auto check = [&](const std::vector<float>& la, const std::vector<float>& lb) {
            for (size_t r = 0; r * V < la.size(); ++r, ++rows) {
                worst = std::max(worst, relErr(la.data() + r * V, lb.data() + r * V, V));
                same += argmax(la.data() + r * V, V) == argmax(lb.data() + r * V, V);
            }
        };
        const auto table = blockRun(0, 64);
        check(runSlice(**a, seq, 0, table, true), runSlice(**b, seq, 0, table, true));  // cuBLAS path
        for (int32_t p = 16; p < 28; ++p) check(runSlice(**a, {300 + p}, p, table), runSlice(**b, {300 + p}, p, table));
        std::printf("  %-5s vs its f32 twin: max rel err %.2e, top-1 equal %d/%d\n", std::string(tensorTypeName(type)).c_str(),
                    worst, same, rows);
        EXPECT_LE(worst, 5e-2) << tensorTypeName(type);
        EXPECT_GE(same * 100, rows * 85) << tensorTypeName(type);
    }
}
