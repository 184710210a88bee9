// Every quantizable type round-trips random data (Gaussian with outliers, never zeros) within its
// error bound, measured against the float64 originals; plus edge inputs (constant, tiny, huge,
// one spike) that must stay finite and exact where the format allows.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "KernelTestUtil.h"

using namespace hearth;

namespace {

std::vector<float> roundTrip(TensorType t, const std::vector<float>& x, const float* importance = nullptr) {
    std::vector<uint8_t> q(*rowBytes(t, x.size()));
    EXPECT_TRUE(quant::quantize(t, x.data(), q.data(), static_cast<int64_t>(x.size()), importance));
    std::vector<float> y(x.size());
    EXPECT_TRUE(quant::dequantize(t, q.data(), y.data(), static_cast<int64_t>(y.size())));
    return y;
}

double relErr(const std::vector<float>& y, const std::vector<float>& x, size_t from = 0, size_t to = SIZE_MAX) {
    double n = 0, d = 0;
    for (size_t i = from; i < std::min(to, x.size()); ++i) {
        n += (static_cast<double>(y[i]) - x[i]) * (static_cast<double>(y[i]) - x[i]);
        d += static_cast<double>(x[i]) * x[i];
    }
    return std::sqrt(n / d);
}

// Relative RMSE bounds on N(0, 1) data with 4x outliers every 97 elements: the measured values
// plus 10% (a change that makes a type noticeably worse fails; test_quant_quality compares with
// llama.cpp's own quantization of the reference model).
const std::map<TensorType, double> kBound = {
    {TensorType::F32, 0.0},     {TensorType::F16, 2.4e-4},  {TensorType::BF16, 1.9e-3},
    {TensorType::Q8_0, 0.0065}, {TensorType::Q6_K, 0.020},  {TensorType::Q5_1, 0.039},
    {TensorType::Q5_0, 0.053},  {TensorType::Q5_K, 0.041},  {TensorType::Q4_1, 0.082},
    {TensorType::Q4_0, 0.109},  {TensorType::Q4_K, 0.083},  {TensorType::Q3_K, 0.173},
    {TensorType::Q2_K, 0.304},
};

class RoundTrip : public ::testing::TestWithParam<TensorType> {};

TEST_P(RoundTrip, RandomDataWithinTheTypeBound) {
    const TensorType t = GetParam();
    const auto x = test::randomFloats(256 * 64, 42);
    const auto y = roundTrip(t, x);
    const double err = relErr(y, x);
    std::printf("  %-5s relative RMSE %.5f (bound %.5f)\n", std::string(tensorTypeName(t)).c_str(), err, kBound.at(t));
    EXPECT_LE(err, kBound.at(t));
    if (t != TensorType::F32) EXPECT_GT(err, 0.0);
    for (float v : y) ASSERT_TRUE(std::isfinite(v));
}

TEST_P(RoundTrip, EdgeInputsStayFiniteAndSensible) {
    const TensorType t = GetParam();
    const int64_t n = 512;
    auto check = [&](const std::vector<float>& x, double bound, const char* what) {
        const auto y = roundTrip(t, x);
        for (float v : y) ASSERT_TRUE(std::isfinite(v)) << what;
        EXPECT_LE(relErr(y, x), bound) << tensorTypeName(t) << " " << what;
    };
    check(std::vector<float>(n, 0.75f), 2 * kBound.at(t) + 1e-3, "constant");
    check(std::vector<float>(n, -3e-3f), 2 * kBound.at(t) + 1e-3, "small negative constant");
    auto tiny = test::randomFloats(n, 7, 1e-3f);  // small weights; at 1e-6 the formats' f16 scales underflow
    check(tiny, 1.5 * kBound.at(t) + (t == TensorType::F16 ? 0.05 : 1e-3), "tiny");  // f16 subnormals
    auto big = test::randomFloats(n, 8, 1000.0f);
    check(big, 1.5 * kBound.at(t) + 1e-3, "large");
    std::vector<float> spike(n, 0.01f);
    spike[77] = 50.0f;
    const auto ys = roundTrip(t, spike);
    EXPECT_NEAR(ys[77], 50.0f, 50.0f * 0.03f) << tensorTypeName(t) << ": the largest value must survive";
    std::vector<float> zeros(n, 0.0f);
    for (float v : roundTrip(t, zeros)) ASSERT_EQ(v, 0.0f) << tensorTypeName(t);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, RoundTrip,
                         ::testing::Values(TensorType::F32, TensorType::F16, TensorType::BF16, TensorType::Q8_0,
                                           TensorType::Q6_K, TensorType::Q5_1, TensorType::Q5_0, TensorType::Q5_K,
                                           TensorType::Q4_1, TensorType::Q4_0, TensorType::Q4_K, TensorType::Q3_K,
                                           TensorType::Q2_K),
                         [](const auto& info) { return std::string(tensorTypeName(info.param)); });

// Importance weights trade accuracy between elements: making the first half of every block 100x
// more important lowers its error (the pattern alternates within every 16-element sub-block, so
// each sub-block's own scale fit has something to trade).
TEST(RoundTripImportance, ImportantElementsGetSmallerErrors) {
    const auto x = test::randomFloats(256 * 32, 9);
    std::vector<float> imp(x.size());
    for (size_t i = 0; i < x.size(); ++i) imp[i] = (i % 8) < 4 ? 100.0f : 1.0f;
    for (TensorType t : {TensorType::Q4_0, TensorType::Q4_1, TensorType::Q3_K, TensorType::Q4_K, TensorType::Q6_K}) {
        const auto plain = roundTrip(t, x), weighted = roundTrip(t, x, imp.data());
        double ep = 0, ew = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            if ((i % 8) >= 4) continue;
            ep += (plain[i] - x[i]) * static_cast<double>(plain[i] - x[i]);
            ew += (weighted[i] - x[i]) * static_cast<double>(weighted[i] - x[i]);
        }
        EXPECT_LT(ew, ep * 0.97) << tensorTypeName(t);
    }
}

TEST(RoundTripErrors, BadSizesAndTypesAreRefused) {
    std::vector<float> x(100, 1.0f);
    std::vector<uint8_t> out(1024);
    EXPECT_FALSE(quant::quantize(TensorType::Q4_K, x.data(), out.data(), 100));  // not a multiple of 256
    EXPECT_FALSE(quant::quantize(TensorType::IQ2_XXS, x.data(), out.data(), 64));
    EXPECT_FALSE(quant::dequantize(TensorType::Q8_0, out.data(), x.data(), 33));
    EXPECT_FALSE(quant::dequantize(TensorType::IQ4_NL, out.data(), x.data(), 32));
}

}  // namespace
