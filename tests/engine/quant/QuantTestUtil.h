#pragma once
// Small helpers shared by the quantization tests: tensors as f32 and relative errors.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "gguf/GgufFile.h"
#include "quant/Dequantize.h"

namespace hearth::test {

inline std::vector<float> tensorAsF32(const GgufFile& f, const GgufTensorInfo& t) {
    std::vector<float> out(t.elements());
    EXPECT_TRUE(quant::dequantize(t.type, f.tensorData(t), out.data(), static_cast<int64_t>(out.size()))) << t.name;
    return out;
}

// sqrt(sum (a - ref)^2 / sum ref^2)
inline double relativeRmse(const std::vector<float>& a, const std::vector<float>& ref) {
    double num = 0, den = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = static_cast<double>(a[i]) - ref[i];
        num += d * d;
        den += static_cast<double>(ref[i]) * ref[i];
    }
    return std::sqrt(num / den);
}

}  // namespace hearth::test
