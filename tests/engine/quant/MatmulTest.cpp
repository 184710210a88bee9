// cpu::matmul end to end: threads, decode and prefill tilings, scratch reuse, against the scalar
// kernels on the same data.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "KernelTestUtil.h"
#include "cpu/Matmul.h"
#include "cpu/ThreadPool.h"

using namespace hearth;

namespace {

struct Case {
    TensorType type;
    int64_t rows, cols, nTok;
};

class Matmul : public ::testing::TestWithParam<Case> {};

TEST_P(Matmul, ThreadedTilesMatchTheScalarKernels) {
    const Case c = GetParam();
    const auto w = test::makeWeights(c.type, c.rows, c.cols, 11);
    const auto x = test::randomFloats(static_cast<size_t>(c.nTok * c.cols), 12);
    const auto ref = test::runVariant(*quant::scalarKernels()->find(c.type), w.bytes.data(), w.rowBytes, c.rows, c.cols,
                                      x, c.nTok);
    cpu::ThreadPool pool(2);
    cpu::MatmulScratch scratch;
    std::vector<float> y(static_cast<size_t>(c.rows * c.nTok), NAN);
    cpu::WeightView view{c.type, c.rows, c.cols, w.bytes.data()};
    for (int rep = 0; rep < 2; ++rep) {  // the second call reuses the scratch
        cpu::matmul(view, x.data(), c.nTok, y.data(), pool, scratch);
        for (int64_t i = 0; i < c.rows * c.nTok; ++i) {
            double mag = 0;
            const int64_t t = i / c.rows, r = i % c.rows;
            for (int64_t k = 0; k < c.cols; ++k) mag += std::fabs(w.dequantized[r * c.cols + k] * x[t * c.cols + k]);
            ASSERT_NEAR(y[i], ref[i], 2e-6 * mag + 1e-6) << tensorTypeName(c.type) << " token " << t << " row " << r;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Matmul,
                         ::testing::Values(Case{TensorType::Q8_0, 300, 512, 1}, Case{TensorType::Q4_K, 300, 512, 1},
                                           Case{TensorType::Q4_K, 260, 512, 3}, Case{TensorType::Q6_K, 130, 768, 70},
                                           Case{TensorType::Q8_0, 200, 1024, 37}, Case{TensorType::F16, 99, 160, 33},
                                           Case{TensorType::Q4_0, 64, 256, 130}, Case{TensorType::F32, 10, 64, 2},
                                           Case{TensorType::Q5_K, 48, 256, 20}, Case{TensorType::BF16, 40, 128, 5}),
                         [](const auto& info) {
                             const Case& c = info.param;
                             return std::string(tensorTypeName(c.type)) + "_" + std::to_string(c.rows) + "x" +
                                    std::to_string(c.cols) + "_t" + std::to_string(c.nTok);
                         });

TEST(Matmul, DequantizeRowMatchesTheWholeTensor) {
    const auto w = test::makeWeights(TensorType::Q4_K, 5, 512, 3);
    cpu::WeightView view{TensorType::Q4_K, 5, 512, w.bytes.data()};
    std::vector<float> row(512);
    cpu::dequantizeRow(view, 3, row.data());
    for (int i = 0; i < 512; ++i) EXPECT_EQ(row[i], static_cast<float>(w.dequantized[3 * 512 + i]));
}

TEST(Matmul, SupportsEveryKernelTypeAndNothingElse) {
    for (TensorType t : quant::kKernelTypes) EXPECT_TRUE(cpu::matmulSupports(t)) << tensorTypeName(t);
    EXPECT_FALSE(cpu::matmulSupports(TensorType::IQ2_XXS));
    EXPECT_FALSE(cpu::matmulSupports(TensorType::Q8_K));
}

}  // namespace
