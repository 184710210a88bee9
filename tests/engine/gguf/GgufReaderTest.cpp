// GGUF reader/writer on real files and on round trips of every metadata type.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../TestPaths.h"
#include "gguf/GgufFile.h"
#include "gguf/GgufWriter.h"

using namespace hearth;

TEST(GgufReader, ReadsStories260K) {
    auto f = GgufFile::open(test::modelPath("stories260K.gguf"));
    ASSERT_TRUE(f.ok()) << f.error().toString();
    EXPECT_EQ((*f)->version(), 3u);
    EXPECT_EQ(*(*f)->getString("general.architecture"), "llama");
    EXPECT_EQ(*(*f)->getU64("llama.block_count"), 5u);
    EXPECT_EQ(*(*f)->getU64("llama.embedding_length"), 64u);
    EXPECT_EQ(*(*f)->getU64("llama.attention.head_count"), 8u);
    EXPECT_EQ(*(*f)->getU64("llama.attention.head_count_kv"), 4u);
    const GgufValue* tokens = (*f)->find("tokenizer.ggml.tokens");
    ASSERT_NE(tokens, nullptr);
    ASSERT_NE(tokens->asArray(), nullptr);
    EXPECT_EQ(tokens->arrayType(), GgufType::String);
    EXPECT_EQ(tokens->asArray()->size(), 512u);
    const auto* emb = (*f)->findTensor("token_embd.weight");
    ASSERT_NE(emb, nullptr);
    EXPECT_EQ(emb->type, TensorType::F32);
    ASSERT_EQ(emb->dims.size(), 2u);
    EXPECT_EQ(emb->dims[0], 64u);
    EXPECT_EQ(emb->dims[1], 512u);
    EXPECT_EQ(emb->offset % (*f)->alignment(), 0u);
    // The last tensor ends inside the file and the data are not all zero.
    uint64_t maxEnd = 0;
    for (const auto& t : (*f)->tensors()) maxEnd = std::max(maxEnd, t.offset + t.byteSize);
    EXPECT_LE(maxEnd, (*f)->fileSize());
    const float* w = reinterpret_cast<const float*>((*f)->tensorData(*emb));
    bool nonzero = false;
    for (int i = 0; i < 64; ++i) nonzero |= w[i] != 0.0f;
    EXPECT_TRUE(nonzero);
}

TEST(GgufReader, ReadsEverySharedModelAndVocab) {
    int n = 0;
    for (const auto& dir : {test::sharedDir() + "/models", test::sharedDir() + "/testdata/vocab"}) {
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.path().extension() != ".gguf") continue;
            auto f = GgufFile::open(e.path().string());
            EXPECT_TRUE(f.ok()) << e.path() << ": " << (f.ok() ? "" : f.error().toString());
            if (f.ok()) EXPECT_TRUE((*f)->find("general.architecture") != nullptr) << e.path();
            ++n;
        }
    }
    EXPECT_GE(n, 20);
}

static std::string tempPath(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("hearth_") + name + "_" +
                                                       std::to_string(::getpid()) + ".gguf")).string();
}

TEST(GgufWriter, RoundTripsEveryValueTypeAndNestedArrays) {
    GgufWriter w(64);
    ASSERT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")).ok());
    ASSERT_TRUE(w.setMetadata("general.alignment", GgufValue::u32(64)).ok());
    ASSERT_TRUE(w.setMetadata("t.u8", GgufValue::u8(250)).ok());
    ASSERT_TRUE(w.setMetadata("t.i8", GgufValue::i8(-100)).ok());
    ASSERT_TRUE(w.setMetadata("t.u16", GgufValue::u16(60000)).ok());
    ASSERT_TRUE(w.setMetadata("t.i16", GgufValue::i16(-30000)).ok());
    ASSERT_TRUE(w.setMetadata("t.u32", GgufValue::u32(4000000000u)).ok());
    ASSERT_TRUE(w.setMetadata("t.i32", GgufValue::i32(-2000000000)).ok());
    ASSERT_TRUE(w.setMetadata("t.u64", GgufValue::u64(1ull << 60)).ok());
    ASSERT_TRUE(w.setMetadata("t.i64", GgufValue::i64(-(1ll << 60))).ok());
    ASSERT_TRUE(w.setMetadata("t.f32", GgufValue::f32(3.25f)).ok());
    ASSERT_TRUE(w.setMetadata("t.f64", GgufValue::f64(-1e300)).ok());
    ASSERT_TRUE(w.setMetadata("t.bool", GgufValue::boolean(true)).ok());
    ASSERT_TRUE(w.setMetadata("t.str", GgufValue::string("héllo \xF0\x9F\x99\x82")).ok());
    ASSERT_TRUE(w.setMetadata("t.arr", GgufValue::i32Array({1, -2, 3})).ok());
    std::vector<GgufValue> inner = {GgufValue::stringArray({"a", "bc"}), GgufValue::stringArray({})};
    ASSERT_TRUE(w.setMetadata("t.nested", GgufValue::array(GgufType::Array, inner)).ok());
    std::vector<uint8_t> data(4 * 6);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 1);
    ASSERT_TRUE(w.addTensor("a", TensorType::F32, {3, 2}, data).ok());
    ASSERT_TRUE(w.addTensor("b", TensorType::F16, {4}, std::vector<uint8_t>(8, 0x3c)).ok());
    EXPECT_FALSE(w.addTensor("a", TensorType::F32, {1}, std::vector<uint8_t>(4)).ok());
    EXPECT_FALSE(w.addTensor("c", TensorType::Q8_0, {16}, std::vector<uint8_t>(34)).ok());  // 16 % 32 != 0
    EXPECT_FALSE(w.addTensor("d", TensorType::F32, {2}, std::vector<uint8_t>(4)).ok());     // wrong byte count

    const std::string path = tempPath("roundtrip");
    ASSERT_TRUE(w.write(path).ok());
    auto f = GgufFile::open(path);
    ASSERT_TRUE(f.ok()) << f.error().toString();
    EXPECT_EQ((*f)->alignment(), 64u);
    EXPECT_EQ((*f)->find("t.u8")->asU64().value(), 250u);
    EXPECT_EQ((*f)->find("t.i8")->asI64().value(), -100);
    EXPECT_EQ((*f)->find("t.u16")->asU64().value(), 60000u);
    EXPECT_EQ((*f)->find("t.i16")->asI64().value(), -30000);
    EXPECT_EQ((*f)->find("t.u32")->asU64().value(), 4000000000u);
    EXPECT_EQ((*f)->find("t.i32")->asI64().value(), -2000000000);
    EXPECT_EQ((*f)->find("t.u64")->asU64().value(), 1ull << 60);
    EXPECT_EQ((*f)->find("t.i64")->asI64().value(), -(1ll << 60));
    EXPECT_EQ((*f)->find("t.f32")->asF64().value(), 3.25);
    EXPECT_EQ((*f)->find("t.f64")->asF64().value(), -1e300);
    EXPECT_EQ((*f)->find("t.bool")->asBool().value(), true);
    EXPECT_EQ(*(*f)->find("t.str")->asString(), "héllo \xF0\x9F\x99\x82");
    const auto* arr = (*f)->find("t.arr")->asArray();
    ASSERT_EQ(arr->size(), 3u);
    EXPECT_EQ((*arr)[1].asI64().value(), -2);
    const auto* nested = (*f)->find("t.nested");
    EXPECT_EQ(nested->arrayType(), GgufType::Array);
    ASSERT_EQ(nested->asArray()->size(), 2u);
    EXPECT_EQ(*(*nested->asArray())[0].asArray()->at(1).asString(), "bc");
    EXPECT_TRUE((*nested->asArray())[1].asArray()->empty());
    const auto* a = (*f)->findTensor("a");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->offset % 64, 0u);
    EXPECT_EQ(std::vector<uint8_t>((*f)->tensorData(*a), (*f)->tensorData(*a) + a->byteSize), data);
    const auto* b = (*f)->findTensor("b");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->offset % 64, 0u);
    EXPECT_EQ((*f)->tensorData(*b)[0], 0x3c);
    std::filesystem::remove(path);
}

TEST(GgufReader, ReadsVersion2) {
    GgufWriter w;
    ASSERT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")).ok());
    ASSERT_TRUE(w.addTensor("x", TensorType::F32, {4}, std::vector<uint8_t>(16, 1)).ok());
    const std::string path = tempPath("v2");
    ASSERT_TRUE(w.write(path).ok());
    {
        std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
        io.seekp(4);
        const uint32_t v2 = 2;
        io.write(reinterpret_cast<const char*>(&v2), 4);
    }
    auto f = GgufFile::open(path);
    ASSERT_TRUE(f.ok()) << f.error().toString();
    EXPECT_EQ((*f)->version(), 2u);
    EXPECT_NE((*f)->findTensor("x"), nullptr);
    std::filesystem::remove(path);
}

TEST(GgufWriter, WriteToMissingDirectoryFailsCleanly) {
    GgufWriter w;
    ASSERT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")).ok());
    auto st = w.write("/nonexistent-dir-hearth/x.gguf");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::IoError);
}

TEST(GgufWriter, FullDiskLeavesNoFileUnderTheFinalName) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    // Writing to a full device fails; nothing must appear under the final name.
    GgufWriter w;
    ASSERT_TRUE(w.addTensor("x", TensorType::F32, {1 << 20}, std::vector<uint8_t>(4u << 20, 1)).ok());
    const std::string dir = (std::filesystem::temp_directory_path() / ("hearth_full_" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
    std::filesystem::create_symlink("/dev/full", dir + "/m.gguf.tmp");
    auto st = w.write(dir + "/m.gguf");
    EXPECT_FALSE(st.ok());
    EXPECT_FALSE(std::filesystem::exists(dir + "/m.gguf"));
    std::filesystem::remove_all(dir);
}
