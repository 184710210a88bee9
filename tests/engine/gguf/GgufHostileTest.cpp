// Hostile GGUF files: every mutation gives a clear error value, never a crash or a hang.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "../TestPaths.h"
#include "gguf/GgufFile.h"
#include "gguf/GgufWriter.h"

using namespace hearth;

namespace {

std::vector<uint8_t> validFile() {
    GgufWriter w;
    (void)w.setMetadata("general.architecture", GgufValue::string("llama"));
    (void)w.setMetadata("llama.block_count", GgufValue::u32(1));
    (void)w.setMetadata("tokenizer.ggml.tokens", GgufValue::stringArray({"<s>", "a", "b"}));
    (void)w.setMetadata("nested", GgufValue::array(GgufType::Array, {GgufValue::i32Array({1, 2})}));
    std::vector<uint8_t> t1(4 * 8, 0x11), t2(34 * 2, 0x22);
    (void)w.addTensor("t1", TensorType::F32, {8}, t1);
    (void)w.addTensor("t2", TensorType::Q8_0, {32, 2}, t2);
    auto bytes = w.headerBytes();
    bytes.resize(bytes.size() + 32, 0x11);  // t1 at offset 0
    bytes.resize(bytes.size() + 68, 0x22);  // t2 at offset 32 (the next multiple of the alignment)
    return bytes;
}

Result<std::shared_ptr<GgufFile>> parse(const std::vector<uint8_t>& b) { return GgufFile::parse(b.data(), b.size()); }

// Offset of the first byte of `needle` in `hay` (tests patch fields they locate by name).
size_t find(const std::vector<uint8_t>& hay, const std::string& needle) {
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end());
    EXPECT_NE(it, hay.end()) << needle;
    return static_cast<size_t>(it - hay.begin());
}

template <class T>
void poke(std::vector<uint8_t>& b, size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof(T)); }

}  // namespace

TEST(GgufHostile, ValidBaselineParses) {
    auto b = validFile();
    auto f = parse(b);
    ASSERT_TRUE(f.ok()) << f.error().toString();
    EXPECT_EQ((*f)->tensors().size(), 2u);
}

TEST(GgufHostile, EveryTruncationIsAnError) {
    const auto b = validFile();
    for (size_t n = 0; n < b.size(); ++n) {
        std::vector<uint8_t> t(b.begin(), b.begin() + n);
        auto f = parse(t);
        ASSERT_FALSE(f.ok()) << "truncated to " << n << " bytes parsed";
        EXPECT_TRUE(f.error().code == ErrorCode::Truncated || f.error().code == ErrorCode::Corrupt) << n;
        EXPECT_FALSE(f.error().message.empty());
    }
}

TEST(GgufHostile, TruncatedTensorDataNamesTheTensor) {
    auto b = validFile();
    b.resize(b.size() - 10);
    auto f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, ErrorCode::Truncated);
    EXPECT_NE(f.error().message.find("'t2'"), std::string::npos) << f.error().message;
}

TEST(GgufHostile, BadMagicAndVersion) {
    auto b = validFile();
    b[0] = 'X';
    EXPECT_EQ(parse(b).error().code, ErrorCode::BadMagic);
    b = validFile();
    poke<uint32_t>(b, 4, 1);
    EXPECT_EQ(parse(b).error().code, ErrorCode::UnsupportedVersion);
    poke<uint32_t>(b, 4, 99);
    EXPECT_EQ(parse(b).error().code, ErrorCode::UnsupportedVersion);
}

TEST(GgufHostile, LyingTensorCount) {
    auto b = validFile();
    poke<uint64_t>(b, 8, 1ull << 40);
    auto f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, ErrorCode::Corrupt);
    EXPECT_NE(f.error().message.find("tensor count"), std::string::npos) << f.error().message;
    b = validFile();
    poke<uint64_t>(b, 8, 3);  // one more than there are: the third "tensor info" is tensor data
    f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("tensor"), std::string::npos) << f.error().message;
}

TEST(GgufHostile, LyingMetadataCountAndLengths) {
    auto b = validFile();
    poke<uint64_t>(b, 16, ~0ull);
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
    // A string length far past the end of the file.
    b = validFile();
    const size_t keyAt = find(b, "general.architecture");
    poke<uint64_t>(b, keyAt - 8, 1ull << 62);
    auto f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, ErrorCode::Corrupt);
    // An array count past the end.
    b = validFile();
    const size_t arrAt = find(b, "tokenizer.ggml.tokens") + std::strlen("tokenizer.ggml.tokens");
    poke<uint64_t>(b, arrAt + 8, 1ull << 50);  // after value type (4) and element type (4)
    f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, ErrorCode::Truncated);
    EXPECT_NE(f.error().message.find("tokenizer.ggml.tokens"), std::string::npos);
}

TEST(GgufHostile, OffsetPastTheEnd) {
    auto b = validFile();
    const size_t nameAt = find(b, "t2");
    // name(2) + n_dims(4) + dims(16) + type(4) -> offset
    poke<uint64_t>(b, nameAt + 2 + 4 + 16 + 4, 1ull << 40);
    auto f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, ErrorCode::Corrupt);
    EXPECT_NE(f.error().message.find("past the end"), std::string::npos) << f.error().message;
    poke<uint64_t>(b, nameAt + 2 + 4 + 16 + 4, ~0ull - 31);  // overflowing, aligned
    EXPECT_FALSE(parse(b).ok());
    poke<uint64_t>(b, nameAt + 2 + 4 + 16 + 4, 3);  // misaligned
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
}

TEST(GgufHostile, UnknownTensorTypeAndBadShapes) {
    auto b = validFile();
    const size_t nameAt = find(b, "t2");
    poke<uint32_t>(b, nameAt + 2 + 4 + 16, 4);  // id 4 was removed from ggml
    auto f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, ErrorCode::UnknownTensorType);
    EXPECT_NE(f.error().message.find("'t2'"), std::string::npos);
    b = validFile();
    poke<uint32_t>(b, nameAt + 2, 9);  // 9 dims
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
    b = validFile();
    poke<uint64_t>(b, nameAt + 2 + 4, 0);  // zero dim
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
    b = validFile();
    poke<uint64_t>(b, nameAt + 2 + 4, 33);  // not a multiple of the q8_0 block
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
    b = validFile();
    poke<uint64_t>(b, nameAt + 2 + 4, 1ull << 40);  // element count overflows with dim 1
    poke<uint64_t>(b, nameAt + 2 + 4 + 8, 1ull << 40);
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
}

TEST(GgufHostile, BadValueTypesAndDuplicates) {
    auto b = validFile();
    const size_t at = find(b, "llama.block_count") + std::strlen("llama.block_count");
    poke<uint32_t>(b, at, 77);
    EXPECT_EQ(parse(b).error().code, ErrorCode::Corrupt);
    b = validFile();
    const size_t t1 = find(b, "t1");
    b[t1 + 1] = '2';  // two tensors named t2
    auto f = parse(b);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("duplicate"), std::string::npos);
}

TEST(GgufHostile, RandomByteFlipsNeverCrash) {
    const auto base = validFile();
    std::mt19937 rng(1234);
    int errors = 0;
    for (int iter = 0; iter < 20000; ++iter) {
        auto b = base;
        const int flips = 1 + rng() % 4;
        for (int i = 0; i < flips; ++i) b[rng() % b.size()] = static_cast<uint8_t>(rng());
        auto f = parse(b);
        if (!f.ok()) {
            ++errors;
            EXPECT_FALSE(f.error().message.empty());
        }
    }
    EXPECT_GT(errors, 100);
}

// Broken files kept as regression tests (tests/fuzz/corpus/broken-*.gguf): all must be refused.
TEST(GgufHostile, RegressionCorpusIsRefused) {
    const auto dir = test::sourcePath("tests/fuzz/corpus");
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name.rfind("broken-", 0) != 0) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
        auto f = parse(b);
        EXPECT_FALSE(f.ok()) << name;
        ++n;
    }
    EXPECT_GE(n, 8);
}
