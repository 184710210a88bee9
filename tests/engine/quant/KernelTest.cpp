// Every kernel variant (scalar, AVX2, AVX-512 where the CPU has them) against the scalar variant
// and against float64 references, for every weight type, on shapes that exercise every
// remainder path (rows not a multiple of the micro-tile, 1..9 tokens, vector tails).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "KernelTestUtil.h"
#include "core/Half.h"
#include "quant/ActivationQuant.h"
#include "quant/KScales.h"

using namespace hearth;
using test::Weights;

namespace {

struct Shape {
    int64_t rows, cols, nTok;
};

std::vector<Shape> shapesFor(TensorType t) {
    const int64_t bs = traits(t).blockSize;
    std::vector<Shape> s = {{1, 512, 1}, {7, 512, 1}, {13, 768, 4}, {5, 512, 9}, {9, 256, 3}, {4, 1024, 8}};
    if (bs == 32) s.push_back({6, 96, 5});
    if (bs == 1) s.push_back({6, 100, 5}), s.push_back({3, 7, 6});
    return s;
}

// The partner-type rounding of the activations as float64 (what the kernels really multiply).
// For the Q8_1 partner, sOffset[t * nb + b] receives s - d * sum(q) of each block: the kernels
// multiply a weight block's m by the rounded s, which the dequantized product does not see.
std::vector<double> referenceActivations(TensorType t, const std::vector<float>& x, int64_t cols,
                                         std::vector<double>* sOffset = nullptr) {
    std::vector<double> out(x.size());
    const int64_t n = static_cast<int64_t>(x.size()) / cols;
    std::vector<float> tmp(static_cast<size_t>(cols));
    for (int64_t r = 0; r < n; ++r) {
        const float* xr = x.data() + r * cols;
        const int bs = traits(t).blockSize;
        if (t == TensorType::F32) {
            for (int64_t i = 0; i < cols; ++i) tmp[i] = xr[i];
        } else if (t == TensorType::F16) {
            for (int64_t i = 0; i < cols; ++i) tmp[i] = f16ToF32(f32ToF16(xr[i]));
        } else if (t == TensorType::BF16) {
            for (int64_t i = 0; i < cols; ++i) tmp[i] = bf16ToF32(f32ToBf16(xr[i]));
        } else if (bs == 256) {
            std::vector<quant::BlockQ8_K> b(static_cast<size_t>(cols / 256));
            quant::quantizeActQ8_K(xr, b.data(), cols);
            quant::dequantize(TensorType::Q8_K, b.data(), tmp.data(), cols);
        } else if (t == TensorType::Q4_1 || t == TensorType::Q5_1) {
            std::vector<quant::BlockQ8_1> b(static_cast<size_t>(cols / 32));
            quant::quantizeActQ8_1(xr, b.data(), cols);
            quant::dequantize(TensorType::Q8_1, b.data(), tmp.data(), cols);
            for (const auto& blk : b) {
                double sq = 0;
                for (int8_t q : blk.qs) sq += q;
                if (sOffset) sOffset->push_back(f16ToF32(blk.s) - static_cast<double>(f16ToF32(blk.d)) * sq);
            }
        } else {
            std::vector<quant::BlockQ8_0> b(static_cast<size_t>(cols / 32));
            quant::quantizeActQ8_0(xr, b.data(), cols);
            quant::dequantize(TensorType::Q8_0, b.data(), tmp.data(), cols);
        }
        for (int64_t i = 0; i < cols; ++i) out[r * cols + i] = tmp[i];
    }
    return out;
}

// Relative activation rounding of each partner type (bound on |x - xq| / |x|max of a block).
double activationError(TensorType t) {
    if (t == TensorType::F32) return 1e-7;
    if (t == TensorType::F16) return 1e-3;
    if (t == TensorType::BF16) return 8e-3;
    return 1.0 / 127;
}

class Kernels : public ::testing::TestWithParam<TensorType> {};

TEST_P(Kernels, EveryVariantMatchesTheReferences) {
    const TensorType t = GetParam();
    const auto* scalar = quant::scalarKernels()->find(t);
    ASSERT_NE(scalar, nullptr);
    uint32_t seed = 1;
    for (const Shape& s : shapesFor(t)) {
        const Weights w = test::makeWeights(t, s.rows, s.cols, seed++);
        const auto x = test::randomFloats(static_cast<size_t>(s.nTok * s.cols), seed++);
        std::vector<double> sOffset;
        const auto xq = referenceActivations(t, x, s.cols, &sOffset);
        const auto ys = test::runVariant(*scalar, w.bytes.data(), w.rowBytes, s.rows, s.cols, x, s.nTok);
        for (const auto* variant : test::availableVariants()) {
            const auto* k = variant->find(t);
            ASSERT_NE(k, nullptr) << variant->name;
            const auto y = test::runVariant(*k, w.bytes.data(), w.rowBytes, s.rows, s.cols, x, s.nTok);
            for (int64_t tok = 0; tok < s.nTok; ++tok) {
                for (int64_t r = 0; r < s.rows; ++r) {
                    double exactQ = 0, exact = 0, mag = 0, magX = 0;
                    for (int64_t i = 0; i < s.cols; ++i) {
                        const double wv = w.dequantized[r * s.cols + i];
                        exactQ += wv * xq[tok * s.cols + i];
                        exact += wv * x[tok * s.cols + i];
                        mag += std::fabs(wv * xq[tok * s.cols + i]);
                        magX += std::fabs(wv) * std::fabs(x[tok * s.cols + i]);
                    }
                    for (int64_t b = 0; b < static_cast<int64_t>(sOffset.size()) / s.nTok; ++b) {
                        const uint8_t* blk = w.bytes.data() + r * w.rowBytes + b * traits(t).typeSize;
                        f16_t m;
                        std::memcpy(&m, blk + 2, 2);
                        exactQ += f16ToF32(m) * sOffset[tok * (s.cols / 32) + b];
                    }
                    const float got = y[tok * s.rows + r];
                    const std::string where = std::string(variant->name) + " " + std::string(tensorTypeName(t)) +
                                              " rows " + std::to_string(s.rows) + " cols " + std::to_string(s.cols) +
                                              " tokens " + std::to_string(s.nTok) + " at (" + std::to_string(tok) +
                                              "," + std::to_string(r) + ")";
                    // Float summation order is the only difference between variants.
                    EXPECT_NEAR(got, ys[tok * s.rows + r], 2e-6 * mag + 1e-30) << where;
                    // Against float64 with the activations rounded as the partner type does.
                    EXPECT_NEAR(got, exactQ, 2e-6 * mag + 1e-30) << where;
                    // Against float64 with the raw activations: only the activation rounding differs.
                    EXPECT_NEAR(got, exact, activationError(t) * magX + 1e-30) << where;
                }
            }
        }
    }
}

// With work space the k-quant tiles unpack weight panels once for many tokens; the results must
// not change by a single bit.
TEST_P(Kernels, PackedPanelsGiveIdenticalResults) {
    const TensorType t = GetParam();
    for (const auto* variant : test::availableVariants()) {
        const auto* k = variant->find(t);
        if (!k->workBytes) continue;
        for (const Shape& s : {Shape{37, 512, 8}, Shape{5, 768, 13}, Shape{20, 256, 35}}) {
            const Weights w = test::makeWeights(t, s.rows, s.cols, 3);
            const auto x = test::randomFloats(static_cast<size_t>(s.nTok * s.cols), 4);
            const auto plain = test::runVariant(*k, w.bytes.data(), w.rowBytes, s.rows, s.cols, x, s.nTok, false);
            const auto packed = test::runVariant(*k, w.bytes.data(), w.rowBytes, s.rows, s.cols, x, s.nTok, true);
            for (size_t i = 0; i < plain.size(); ++i)
                ASSERT_EQ(std::memcmp(&plain[i], &packed[i], 4), 0)
                    << variant->name << " " << tensorTypeName(t) << " output " << i << ": " << plain[i] << " vs " << packed[i];
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, Kernels, ::testing::ValuesIn(quant::kKernelTypes),
                         [](const auto& info) { return std::string(tensorTypeName(info.param)); });

// Activation rounding must equal ggml's bit for bit. One-hot weight rows read single activation
// values back exactly (every product involved is exact in float), so the variants' private
// activation formats are compared value by value with the reference block quantizers.
std::vector<float> oneHotOutputs(const quant::TypeKernels& k, TensorType t, const std::vector<float>& x, int64_t cols,
                                 bool minsOnly) {
    const uint64_t rb = *rowBytes(t, static_cast<uint64_t>(cols));
    const int64_t rows = minsOnly ? cols / 32 : cols;  // one row per block (Q4_1) or sub-block (Q4_K)
    std::vector<uint8_t> w(rb * static_cast<uint64_t>(rows), 0);
    for (int64_t r = 0; r < rows; ++r) {
        uint8_t* row = w.data() + r * rb;
        const f16_t one = f32ToF16(1.0f);
        if (t == TensorType::Q8_0) {
            auto* b = reinterpret_cast<quant::BlockQ8_0*>(row);
            for (int64_t i = 0; i < cols / 32; ++i) b[i].d = one;
            b[r / 32].qs[r % 32] = 1;
        } else if (t == TensorType::Q4_1) {
            auto* b = reinterpret_cast<quant::BlockQ4_1*>(row);
            if (minsOnly) {
                b[r].m = one;  // y = s of block r
            } else {
                for (int64_t i = 0; i < cols / 32; ++i) b[i].d = one;
                const int e = static_cast<int>(r % 32);
                b[r / 32].qs[e % 16] = static_cast<uint8_t>(e < 16 ? 1 : 0x10);
            }
        } else if (t == TensorType::Q4_K) {
            auto* b = reinterpret_cast<quant::BlockQ4_K*>(row);
            uint8_t sc[8] = {}, mn[8] = {};
            const int64_t blk = minsOnly ? r / 8 : r / 256;
            if (minsOnly) {
                b[blk].dmin = one;
                mn[r % 8] = 1;  // y = -d_x * (sum of the 32 values of sub-block r % 8)
            } else {
                b[blk].d = one;
                for (auto& s : sc) s = 1;
                const int e = static_cast<int>(r % 256);
                b[blk].qs[32 * (e / 64) + e % 32] = static_cast<uint8_t>((e / 32) % 2 ? 0x10 : 1);
            }
            quant::packScaleMinK4(sc, mn, b[blk].scales);
        } else {  // F16 / BF16
            auto* h = reinterpret_cast<uint16_t*>(row);
            h[r] = t == TensorType::F16 ? one : f32ToBf16(1.0f);
        }
    }
    return test::runVariant(k, w.data(), rb, rows, cols, x, 1);
}

TEST(KernelActivations, RoundingIsBitExactWithTheReference) {
    const auto x = test::randomFloats(512, 77);
    for (TensorType t : {TensorType::Q8_0, TensorType::Q4_1, TensorType::Q4_K, TensorType::F16, TensorType::BF16}) {
        for (bool mins : {false, true}) {
            if (mins && t != TensorType::Q4_1 && t != TensorType::Q4_K) continue;
            const auto ref = oneHotOutputs(*quant::scalarKernels()->find(t), t, x, 512, mins);
            // Sanity: the reference really holds the rounded activations.
            if (!mins && t == TensorType::Q8_0) {
                std::vector<quant::BlockQ8_0> b(16);
                quant::quantizeActQ8_0(x.data(), b.data(), 512);
                EXPECT_EQ(ref[40], f16ToF32(b[1].d) * b[1].qs[8]);
            }
            for (const auto* v : test::availableVariants()) {
                const auto got = oneHotOutputs(*v->find(t), t, x, 512, mins);
                ASSERT_EQ(got.size(), ref.size());
                for (size_t i = 0; i < ref.size(); ++i)
                    ASSERT_EQ(std::memcmp(&got[i], &ref[i], 4), 0)
                        << v->name << " " << tensorTypeName(t) << (mins ? " mins" : "") << " value " << i << ": "
                        << got[i] << " vs " << ref[i];
            }
        }
    }
}

TEST(KernelActivations, AllZeroBlocksGiveZero) {
    std::vector<float> x(512, 0.0f);
    for (int i = 256; i < 512; ++i) x[i] = 0.25f * static_cast<float>((i % 7) - 3);
    for (TensorType t : {TensorType::Q8_0, TensorType::Q4_1, TensorType::Q4_K, TensorType::Q6_K}) {
        const Weights w = test::makeWeights(t, 3, 512, 5);
        const auto ys = test::runVariant(*quant::scalarKernels()->find(t), w.bytes.data(), w.rowBytes, 3, 512, x, 1);
        for (const auto* v : test::availableVariants()) {
            const auto y = test::runVariant(*v->find(t), w.bytes.data(), w.rowBytes, 3, 512, x, 1);
            for (int r = 0; r < 3; ++r) {
                EXPECT_TRUE(std::isfinite(y[r])) << v->name << " " << tensorTypeName(t);
                EXPECT_NEAR(y[r], ys[r], 1e-5 * (std::fabs(ys[r]) + 1)) << v->name << " " << tensorTypeName(t);
            }
        }
    }
}

}  // namespace
