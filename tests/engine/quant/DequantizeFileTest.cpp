// Layout check on real files: llama.cpp quantized every tiny-llama-*.gguf from the same weights as
// tiny-llama-f16.gguf, so each dequantized tensor must land close to its F16 original. A wrong bit
// layout gives errors near or above 100%; the bounds below sit ~10% above each type's
// quantization error on these random weights.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "../TestPaths.h"
#include "core/TensorType.h"
#include "gguf/GgufFile.h"
#include "quant/Dequantize.h"
#include "QuantTestUtil.h"

using namespace hearth;

namespace {

// Measured llama.cpp errors on these files: q8_0 0.0054, q6_K 0.0178, q5_K 0.0364, q4_K 0.0718,
// q4_0 0.0862, q3_K 0.1515, q2_K 0.2975 (the random weights are uniform, hence the large values).
const std::map<TensorType, double> kBound = {
    {TensorType::Q8_0, 0.006}, {TensorType::Q6_K, 0.0195}, {TensorType::Q5_K, 0.040},
    {TensorType::Q4_K, 0.079}, {TensorType::Q4_0, 0.095}, {TensorType::Q3_K, 0.167},
    {TensorType::Q2_K, 0.33},
};

class DequantizeFile : public ::testing::TestWithParam<const char*> {};

TEST_P(DequantizeFile, EveryTensorMatchesTheF16Original) {
    auto ref = GgufFile::open(test::modelPath("tiny-llama-f16.gguf"));
    ASSERT_TRUE(ref) << ref.error().toString();
    auto q = GgufFile::open(test::modelPath(GetParam()));
    ASSERT_TRUE(q) << q.error().toString();
    int checked = 0;
    for (const auto& t : (*q)->tensors()) {
        if (!traits(t.type).quantized) continue;
        const GgufTensorInfo* r = (*ref)->findTensor(t.name);
        ASSERT_NE(r, nullptr) << t.name;
        ASSERT_EQ(r->elements(), t.elements()) << t.name;
        const double err = test::relativeRmse(test::tensorAsF32(**q, t), test::tensorAsF32(**ref, *r));
        ASSERT_TRUE(kBound.count(t.type)) << tensorTypeName(t.type);
        EXPECT_LT(err, kBound.at(t.type)) << t.name << " " << tensorTypeName(t.type);
        EXPECT_GT(err, 0.0) << t.name;  // a quantized tensor that equals the original would mean we read the wrong data
        ++checked;
    }
    EXPECT_GT(checked, 10);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, DequantizeFile,
                         ::testing::Values("tiny-llama-q8_0.gguf", "tiny-llama-q6_k.gguf", "tiny-llama-q5_k_m.gguf",
                                           "tiny-llama-q4_k_m.gguf", "tiny-llama-q4_0.gguf",
                                           "tiny-llama-q3_k_m.gguf", "tiny-llama-q2_k.gguf"));

}  // namespace
