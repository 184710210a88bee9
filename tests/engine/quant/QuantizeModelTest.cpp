// hearth::quantizeModel on a real file: every mix loads back with the expected tensor types (the
// same as llama.cpp's own files where we have them), all metadata kept, values close to the
// original; plus the mix rules on a deeper model, the row-length fallbacks, cancel and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include <unistd.h>

#include "../TestPaths.h"
#include "gguf/GgufFile.h"
#include "gguf/GgufWriter.h"
#include "hearth/quantize.h"
#include "quant/Dequantize.h"
#include "quant/QuantMix.h"
#include "QuantTestUtil.h"

using namespace hearth;
namespace fs = std::filesystem;

namespace {

const fs::path& tempDir() {
    static const struct Dir {
        fs::path path = fs::temp_directory_path() / ("hearth-quant-test-" + std::to_string(::getpid()));
        Dir() { fs::create_directories(path); }
        ~Dir() {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    } dir;
    return dir.path;
}

std::string tempPath(const std::string& name) { return (tempDir() / name).string(); }

struct MixCase {
    const char* mix;
    uint32_t fileType;
    const char* llamaCppFile;  // the same mix made by llama.cpp, or nullptr
};

class QuantizeModel : public ::testing::TestWithParam<MixCase> {};

TEST_P(QuantizeModel, TinyLlamaLoadsBackWithTheMixTypes) {
    const MixCase c = GetParam();
    const std::string in = test::modelPath("tiny-llama-f16.gguf");
    const std::string out = tempPath(std::string("tiny-") + c.mix + ".gguf");
    QuantizeParams p;
    p.inputPath = in, p.outputPath = out, p.mix = c.mix, p.threads = 2;
    size_t calls = 0;
    p.progress = [&](const QuantizeProgress& q) {
        EXPECT_EQ(q.index, calls++);
        return true;
    };
    auto r = quantizeModel(p);
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_EQ(r->fileType, c.fileType);
    auto src = GgufFile::open(in);
    auto dst = GgufFile::open(out);
    ASSERT_TRUE(src && dst) << (dst ? "" : dst.error().toString());
    EXPECT_EQ(calls, (*src)->tensors().size());
    EXPECT_EQ(r->tensors, (*src)->tensors().size());

    // Metadata: everything kept, file type set.
    for (const auto& [key, value] : (*src)->metadata()) {
        const GgufValue* v = (*dst)->find(key);
        ASSERT_NE(v, nullptr) << key;
        if (key != "general.file_type") EXPECT_EQ(v->toDisplayString(1000), value.toDisplayString(1000)) << key;
    }
    EXPECT_EQ((*dst)->getU64Or("general.file_type", 999), c.fileType);
    EXPECT_EQ((*dst)->getU64Or("general.quantization_version", 0), 2u);

    std::shared_ptr<GgufFile> theirs;
    if (c.llamaCppFile) {
        auto f = GgufFile::open(test::modelPath(c.llamaCppFile));
        ASSERT_TRUE(f);
        theirs = *f;
    }
    ASSERT_EQ((*dst)->tensors().size(), (*src)->tensors().size());
    for (size_t i = 0; i < (*src)->tensors().size(); ++i) {
        const auto& s = (*src)->tensors()[i];
        const auto& d = (*dst)->tensors()[i];
        EXPECT_EQ(d.name, s.name);
        EXPECT_EQ(d.dims, s.dims) << s.name;
        if (s.dims.size() == 1) EXPECT_EQ(d.type, s.type) << s.name;  // norms are copied
        if (theirs) {
            const GgufTensorInfo* t = theirs->findTensor(s.name);
            ASSERT_NE(t, nullptr) << s.name;
            EXPECT_EQ(tensorTypeName(d.type), tensorTypeName(t->type)) << c.mix << " " << s.name;
        }
        const double err = test::relativeRmse(test::tensorAsF32(**dst, d), test::tensorAsF32(**src, s));
        EXPECT_LT(err, d.type == TensorType::Q2_K ? 0.31 : d.type == TensorType::Q3_K ? 0.16 : 0.09) << s.name;
    }
    fs::remove(out);
}

INSTANTIATE_TEST_SUITE_P(Mixes, QuantizeModel,
                         ::testing::Values(MixCase{"Q4_K_M", 15, "tiny-llama-q4_k_m.gguf"},
                                           MixCase{"Q5_K_M", 17, "tiny-llama-q5_k_m.gguf"},
                                           MixCase{"Q6_K", 18, "tiny-llama-q6_k.gguf"},
                                           MixCase{"Q8_0", 7, "tiny-llama-q8_0.gguf"},
                                           MixCase{"Q4_0", 2, "tiny-llama-q4_0.gguf"},
                                           MixCase{"Q3_K_M", 12, "tiny-llama-q3_k_m.gguf"},
                                           MixCase{"q2_k", 10, "tiny-llama-q2_k.gguf"},
                                           MixCase{"Q4_K_S", 14, nullptr}, MixCase{"Q5_K_S", 16, nullptr},
                                           MixCase{"F16", 1, "tiny-llama-f16.gguf"}),
                         [](const auto& info) { return std::string(info.param.mix); });

// The per-layer rules on a 32-layer model (where llama.cpp's choices are easy to state).
TEST(QuantMix, LayerRulesOnADeepModel) {
    auto mix = quant::QuantMix::fromName("Q4_K_M");
    ASSERT_TRUE(mix);
    auto slot = [](const std::string& name, int layer) {
        return quant::TensorSlot{name, TensorType::F16, {4096, 4096}, layer, 32, 4, true};
    };
    std::string v, down;
    for (int i = 0; i < 32; ++i) {
        v += mix->typeFor(slot("blk." + std::to_string(i) + ".attn_v.weight", i)) == TensorType::Q6_K ? '6' : '4';
        down += mix->typeFor(slot("blk." + std::to_string(i) + ".ffn_down.weight", i)) == TensorType::Q6_K ? '6' : '4';
    }
    // First and last eighth, and every third layer in between.
    EXPECT_EQ(v, "66664464464464464464464464466666");
    EXPECT_EQ(down, v);
    EXPECT_EQ(mix->typeFor(slot("blk.3.attn_q.weight", 3)), TensorType::Q4_K);
    EXPECT_EQ(mix->typeFor(slot("output.weight", -1)), TensorType::Q6_K);
    EXPECT_EQ(mix->typeFor(slot("token_embd.weight", -1)), TensorType::Q4_K);
    auto tied = slot("token_embd.weight", -1);
    tied.hasOutput = false;
    EXPECT_EQ(mix->typeFor(tied), TensorType::Q6_K);  // tied embeddings are the output
    auto q2 = quant::QuantMix::fromName("Q2_K");
    EXPECT_EQ(q2->typeFor(slot("blk.5.attn_v.weight", 5)), TensorType::Q4_K);  // gqa 4
    EXPECT_EQ(q2->typeFor(slot("blk.5.attn_output.weight", 5)), TensorType::Q3_K);
    auto q4s = quant::QuantMix::fromName("Q4_K_S");
    EXPECT_EQ(q4s->typeFor(slot("blk.3.attn_v.weight", 3)), TensorType::Q5_K);
    EXPECT_EQ(q4s->typeFor(slot("blk.4.attn_v.weight", 4)), TensorType::Q4_K);
    EXPECT_EQ(q4s->typeFor(slot("blk.3.ffn_down.weight", 3)), TensorType::Q5_K);
    auto norm = slot("blk.0.attn_norm.weight", 0);
    norm.dims = {4096};
    norm.type = TensorType::F32;
    EXPECT_EQ(mix->typeFor(norm), TensorType::F32);
}

// Rows that are not a multiple of 256 fall back to 32-element types, and to F16 below that.
TEST(QuantizeModelFallback, ShortRowsGetSmallBlockTypes) {
    const std::string in = tempPath("odd-rows.gguf"), out = tempPath("odd-rows-q.gguf");
    GgufWriter w;
    ASSERT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")));
    ASSERT_TRUE(w.setMetadata("llama.block_count", GgufValue::u32(1)));
    auto add = [&](const std::string& name, uint64_t nx, uint64_t rows) {
        std::vector<uint8_t> bytes(nx * rows * 4);
        auto* f = reinterpret_cast<float*>(bytes.data());
        for (uint64_t i = 0; i < nx * rows; ++i) f[i] = std::sin(0.37f * static_cast<float>(i)) * 0.1f;
        ASSERT_TRUE(w.addTensor(name, TensorType::F32, rows > 1 ? std::vector<uint64_t>{nx, rows} : std::vector<uint64_t>{nx}, bytes));
    };
    add("blk.0.attn_q.weight", 96, 8);
    add("blk.0.ffn_up.weight", 40, 8);
    add("output.weight", 96, 8);
    add("blk.0.attn_norm.weight", 96, 1);
    ASSERT_TRUE(w.write(in));
    QuantizeParams p;
    p.inputPath = in, p.outputPath = out, p.mix = "Q4_K_M";
    auto r = quantizeModel(p);
    ASSERT_TRUE(r) << r.error().toString();
    auto f = GgufFile::open(out);
    ASSERT_TRUE(f);
    EXPECT_EQ((*f)->findTensor("blk.0.attn_q.weight")->type, TensorType::Q5_0);
    EXPECT_EQ((*f)->findTensor("blk.0.ffn_up.weight")->type, TensorType::F16);
    EXPECT_EQ((*f)->findTensor("output.weight")->type, TensorType::Q8_0);
    EXPECT_EQ((*f)->findTensor("blk.0.attn_norm.weight")->type, TensorType::F32);
    fs::remove(in), fs::remove(out);
}

TEST(QuantizeModelErrors, CancelLeavesNothingBehind) {
    const std::string out = tempPath("cancelled.gguf");
    QuantizeParams p;
    p.inputPath = test::modelPath("tiny-llama-f16.gguf"), p.outputPath = out, p.mix = "Q8_0";
    p.progress = [](const QuantizeProgress& q) { return q.index < 3; };
    auto r = quantizeModel(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Cancelled);
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out + ".tmp"));
}

TEST(QuantizeModelErrors, BadInputIsAClearError) {
    QuantizeParams p;
    p.inputPath = test::modelPath("no-such-model.gguf"), p.outputPath = tempPath("x.gguf"), p.mix = "Q8_0";
    auto r = quantizeModel(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::IoError);

    p.inputPath = test::modelPath("tiny-llama-f16.gguf"), p.mix = "Q7_K";
    r = quantizeModel(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(r.error().message.find("Q4_K_M"), std::string::npos);  // lists the valid names

    p.mix = "Q8_0", p.outputPath = p.inputPath;
    r = quantizeModel(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);

    const std::string junk = tempPath("junk.gguf");
    FILE* fp = std::fopen(junk.c_str(), "wb");
    std::fputs("not a gguf file at all", fp);
    std::fclose(fp);
    p.inputPath = junk, p.outputPath = tempPath("junk-q.gguf");
    r = quantizeModel(p);
    ASSERT_FALSE(r);
    EXPECT_FALSE(fs::exists(p.outputPath));
    fs::remove(junk);
}

}  // namespace
