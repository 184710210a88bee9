// Broken tokenizer metadata and tokenizer.json files give clear errors, never a crash, and
// small hand-built vocabs behave as their metadata says (add_bos/add_eos, user-defined tokens).
#include <gtest/gtest.h>

#include <fstream>

#include "gguf/GgufWriter.h"
#include "hearth/tokenizer.h"

using namespace hearth;

namespace {

std::string tempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }

// A tiny byte-level vocab: the 256 alphabet characters are not all needed for these texts.
GgufWriter tinyGpt2() {
    GgufWriter w;
    EXPECT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")).ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.model", GgufValue::string("gpt2")).ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.pre", GgufValue::string("gpt-2")).ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.tokens",
                              GgufValue::stringArray({"<s>", "</s>", "a", "b", "ab", "\xC4\xA0", "\xC4\xA0" "ab", "<tool>"}))
                    .ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.token_type", GgufValue::i32Array({3, 3, 1, 1, 1, 1, 1, 4})).ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.merges", GgufValue::stringArray({"a b", "\xC4\xA0 ab"})).ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.bos_token_id", GgufValue::u32(0)).ok());
    EXPECT_TRUE(w.setMetadata("tokenizer.ggml.eos_token_id", GgufValue::u32(1)).ok());
    return w;
}

Result<std::shared_ptr<const Tokenizer>> writeAndLoad(const GgufWriter& w, const std::string& name) {
    const std::string path = tempPath(name);
    EXPECT_TRUE(w.write(path).ok());
    return Tokenizer::fromGguf(path);
}

TEST(HostileGguf, TinyVocabFollowsMetadata) {
    GgufWriter w = tinyGpt2();
    ASSERT_TRUE(w.setMetadata("tokenizer.ggml.add_bos_token", GgufValue::boolean(true)).ok());
    ASSERT_TRUE(w.setMetadata("tokenizer.ggml.add_eos_token", GgufValue::boolean(true)).ok());
    auto t = writeAndLoad(w, "tiny-gpt2.gguf");
    ASSERT_TRUE(t.ok()) << t.error().toString();
    const auto& tok = **t;
    EXPECT_EQ(tok.encode("ab ab"), (std::vector<TokenId>{0, 4, 6, 1}));
    EXPECT_EQ(tok.encode("ab ab", {.addSpecial = false}), (std::vector<TokenId>{4, 6}));
    // User-defined tokens are matched even without special parsing; control ones only with it.
    EXPECT_EQ(tok.encode("ab<tool>ab", {.addSpecial = false}), (std::vector<TokenId>{4, 7, 4}));
    EXPECT_EQ(tok.encode("</s>", {.addSpecial = false, .parseSpecial = true}), (std::vector<TokenId>{1}));
    EXPECT_EQ(tok.decode(std::vector<TokenId>{0, 4, 6, 7, 1}), "<s>ab ab<tool></s>");
    EXPECT_EQ(tok.decode(std::vector<TokenId>{0, 4, 6, 7, 1}, true), "ab ab<tool>");
    EXPECT_EQ(tok.tokenPiece(99), "");
    EXPECT_EQ(tok.decode(std::vector<TokenId>{-5, 4, 1000}), "ab");
}

TEST(HostileGguf, ErrorsNameWhatIsWrong) {
    {
        GgufWriter w = tinyGpt2();
        ASSERT_TRUE(w.setMetadata("tokenizer.ggml.token_type", GgufValue::i32Array({1, 1})).ok());
        auto t = writeAndLoad(w, "bad-types.gguf");
        ASSERT_FALSE(t.ok());
        EXPECT_NE(t.error().message.find("token_type"), std::string::npos) << t.error().message;
    }
    {
        GgufWriter w = tinyGpt2();
        ASSERT_TRUE(w.setMetadata("tokenizer.ggml.pre", GgufValue::string("no-such-pre")).ok());
        auto t = writeAndLoad(w, "bad-pre.gguf");
        ASSERT_FALSE(t.ok());
        EXPECT_NE(t.error().message.find("no-such-pre"), std::string::npos) << t.error().message;
    }
    {
        GgufWriter w = tinyGpt2();
        ASSERT_TRUE(w.setMetadata("tokenizer.ggml.model", GgufValue::string("rwkv")).ok());
        auto t = writeAndLoad(w, "bad-model.gguf");
        ASSERT_FALSE(t.ok());
        EXPECT_NE(t.error().message.find("rwkv"), std::string::npos) << t.error().message;
    }
    {
        GgufWriter w = tinyGpt2();
        ASSERT_TRUE(w.setMetadata("tokenizer.ggml.merges", GgufValue::stringArray({"nospace"})).ok());
        auto t = writeAndLoad(w, "bad-merges.gguf");
        ASSERT_FALSE(t.ok());
        EXPECT_NE(t.error().message.find("merges"), std::string::npos) << t.error().message;
    }
    {
        GgufWriter w = tinyGpt2();
        ASSERT_TRUE(w.setMetadata("tokenizer.ggml.tokens", GgufValue::i32Array({1, 2, 3})).ok());
        auto t = writeAndLoad(w, "bad-tokens.gguf");
        ASSERT_FALSE(t.ok());
        EXPECT_EQ(t.error().code, ErrorCode::BadKeyType) << t.error().toString();
    }
    {
        GgufWriter w;
        ASSERT_TRUE(w.setMetadata("general.architecture", GgufValue::string("llama")).ok());
        auto t = writeAndLoad(w, "no-tokenizer.gguf");
        ASSERT_FALSE(t.ok());
        EXPECT_EQ(t.error().code, ErrorCode::MissingKey) << t.error().toString();
    }
    {
        GgufWriter w = tinyGpt2();
        ASSERT_TRUE(w.setMetadata("tokenizer.ggml.bos_token_id", GgufValue::u32(4000000000u)).ok());
        auto t = writeAndLoad(w, "bos-out-of-range.gguf");
        ASSERT_TRUE(t.ok()) << t.error().toString();  // an id outside the vocab means "none"
        EXPECT_EQ((*t)->bos(), -1);
    }
}

std::string writeText(const std::string& name, const std::string& text) {
    const std::string path = tempPath(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

TEST(HostileTokenizerJson, ErrorsNameWhatIsWrong) {
    struct Case {
        const char* json;
        const char* mentions;
    };
    const Case cases[] = {
        {"{not json", "not valid JSON"},
        {R"({"model": 3})", "model"},
        {R"({"model": {"type": "Unigram", "vocab": []}})", "Unigram"},
        {R"({"model": {"type": "BPE", "vocab": {"a": -4}, "merges": []}})", "bad id"},
        {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [7]}})", "malformed merge"},
        {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "normalizer": {"type": "Precompiled"}})", "Precompiled"},
        {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(unclosed"}, "behavior": "Isolated"}})", "regex"},
        {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "added_tokens": [{"id": "x"}]})", "added token"},
        {R"({"model": {"type": "BPE", "vocab": {"a": 99999999}, "merges": []}})", "implausible"},
    };
    int i = 0;
    for (const Case& c : cases) {
        const std::string path = writeText("bad-tokenizer-" + std::to_string(i++) + ".json", c.json);
        auto t = Tokenizer::fromHuggingFace(path, "");
        ASSERT_FALSE(t.ok()) << c.json;
        EXPECT_NE(t.error().message.find(c.mentions), std::string::npos) << t.error().message;
    }
    auto missing = Tokenizer::fromHuggingFace(tempPath("does-not-exist.json"), "");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::IoError);
}

TEST(HostileTokenizerJson, MinimalBpeWorks) {
    const std::string path = writeText("tiny-tokenizer.json", R"({
      "model": {"type": "BPE", "vocab": {"h": 0, "i": 1, "hi": 2, "<0x21>": 3, "<unk>": 4},
                "merges": ["h i"], "byte_fallback": true, "unk_token": "<unk>"},
      "added_tokens": [{"id": 5, "content": "<end>", "special": true}]})");
    const std::string cfg = writeText("tiny-config.json", R"({"eos_token": "<end>"})");
    auto t = Tokenizer::fromHuggingFace(path, cfg);
    ASSERT_TRUE(t.ok()) << t.error().toString();
    EXPECT_EQ((*t)->vocabSize(), 6);
    EXPECT_EQ((*t)->encode("hih!x", {.addSpecial = false}), (std::vector<TokenId>{2, 0, 3, 4}));
    EXPECT_EQ((*t)->encode("hi<end>", {.addSpecial = false, .parseSpecial = true}), (std::vector<TokenId>{2, 5}));
    EXPECT_TRUE((*t)->isEndOfGeneration(5));
    EXPECT_EQ((*t)->decode(std::vector<TokenId>{2, 3, 5}), "hi!<end>");
}

}  // namespace
