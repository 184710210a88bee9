// Our quantizers against llama.cpp's on the same data: quantize every F16 tensor of
// tiny-llama-f16.gguf and compare the relative RMSE with that of the llama.cpp file of that type.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../TestPaths.h"
#include "core/TensorType.h"
#include "gguf/GgufFile.h"
#include "quant/Dequantize.h"
#include "quant/Quantize.h"
#include "QuantTestUtil.h"

using namespace hearth;

namespace {

std::vector<float> roundTrip(TensorType t, const std::vector<float>& x) {
    std::vector<uint8_t> q(*rowBytes(t, x.size()));
    EXPECT_TRUE(quant::quantize(t, x.data(), q.data(), static_cast<int64_t>(x.size())));
    std::vector<float> y(x.size());
    EXPECT_TRUE(quant::dequantize(t, q.data(), y.data(), static_cast<int64_t>(y.size())));
    return y;
}

struct Case {
    const char* file;
    TensorType type;
};

class QuantizeQuality : public ::testing::TestWithParam<Case> {};

TEST_P(QuantizeQuality, NoWorseThanLlamaCpp) {
    auto ref = GgufFile::open(test::modelPath("tiny-llama-f16.gguf"));
    auto theirs = GgufFile::open(test::modelPath(GetParam().file));
    ASSERT_TRUE(ref && theirs);
    double sumOurs = 0, sumTheirs = 0;
    int n = 0;
    for (const auto& t : (*theirs)->tensors()) {
        if (t.type != GetParam().type) continue;
        const auto x = test::tensorAsF32(**ref, *(*ref)->findTensor(t.name));
        const double ours = test::relativeRmse(roundTrip(t.type, x), x);
        const double them = test::relativeRmse(test::tensorAsF32(**theirs, t), x);
        sumOurs += ours, sumTheirs += them, ++n;
    }
    ASSERT_GT(n, 0);
    std::printf("  %-5s mean relative RMSE over %d tensors: ours %.5f, llama.cpp %.5f\n",
                std::string(tensorTypeName(GetParam().type)).c_str(), n, sumOurs / n, sumTheirs / n);
    EXPECT_LE(sumOurs, sumTheirs * 1.0) << "mean error ours " << sumOurs / n << " llama.cpp " << sumTheirs / n;
}

INSTANTIATE_TEST_SUITE_P(AllTypes, QuantizeQuality,
                         ::testing::Values(Case{"tiny-llama-q8_0.gguf", TensorType::Q8_0},
                                           Case{"tiny-llama-q6_k.gguf", TensorType::Q6_K},
                                           Case{"tiny-llama-q5_k_m.gguf", TensorType::Q5_K},
                                           Case{"tiny-llama-q4_k_m.gguf", TensorType::Q4_K},
                                           Case{"tiny-llama-q4_0.gguf", TensorType::Q4_0},
                                           Case{"tiny-llama-q3_k_m.gguf", TensorType::Q3_K},
                                           Case{"tiny-llama-q2_k.gguf", TensorType::Q2_K}));

}  // namespace
