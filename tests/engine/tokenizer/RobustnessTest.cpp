// Incremental detokenizing never emits broken UTF-8; hostile input (invalid UTF-8, huge text,
// long runs) gives ids quickly and never crashes; bad files give clear errors.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "../TestPaths.h"
#include "VocabCases.h"
#include "tokenizer/Utf8.h"

using namespace hearth;

namespace {

std::shared_ptr<const Tokenizer> load(const std::string& path) {
    auto t = Tokenizer::fromGguf(path);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().toString());
    return t.ok() ? *t : nullptr;
}

TEST(Utf8, SanitizeAndCompletePrefix) {
    EXPECT_EQ(utf8::sanitize("abc"), "abc");
    EXPECT_EQ(utf8::sanitize("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
    EXPECT_EQ(utf8::sanitize("\xE2\x82"), "\xEF\xBF\xBD");          // truncated: one U+FFFD
    EXPECT_EQ(utf8::sanitize("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
    EXPECT_EQ(utf8::sanitize("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong
    EXPECT_EQ(utf8::completePrefix("ab\xE2\x82"), 2u);
    EXPECT_EQ(utf8::completePrefix("ab\xE2\x82\xAC"), 5u);
    EXPECT_EQ(utf8::completePrefix("ab\xFF"), 3u);  // invalid byte: complete (will be replaced)
    EXPECT_EQ(utf8::completePrefix("\xF0\x9F\x98"), 0u);
}

TEST(IncrementalDecoder, HoldsPartialCharactersOfByteTokens) {
    auto tok = load(test::testdataPath("vocab/ggml-vocab-llama-spm.gguf"));
    ASSERT_TRUE(tok);
    // An emoji and a CJK character split over byte-fallback tokens, then plain text.
    const std::string text = "Hi \xF0\x9F\xA6\x99 \xE7\x8C\xAB ok";
    const auto ids = tok->encode(text, {.addSpecial = false});
    IncrementalDecoder dec(tok);
    std::string all;
    int byteTokensSeen = 0;
    for (TokenId id : ids) {
        const std::string part = dec.push(id);
        EXPECT_TRUE(utf8::isValid(part)) << "broken UTF-8 after id " << id;
        if (tok->tokenPiece(id).size() == 1 && static_cast<unsigned char>(tok->tokenPiece(id)[0]) >= 0x80) ++byteTokensSeen;
        all += part;
    }
    all += dec.finish();
    EXPECT_GT(byteTokensSeen, 0) << "test text should need byte tokens";
    EXPECT_EQ(all, " " + text);  // SentencePiece adds the leading space marker
}

TEST(IncrementalDecoder, FlushesUnfinishedCharacterAsReplacement) {
    auto tok = load(test::testdataPath("vocab/ggml-vocab-gpt-2.gguf"));
    ASSERT_TRUE(tok);
    // The first byte of a 4-byte emoji alone: the byte-level vocab has a token per byte.
    const auto ids = tok->encode("\xF0\x9F\xA6\x99", {.addSpecial = false});
    ASSERT_GE(ids.size(), 2u);
    IncrementalDecoder dec(tok);
    EXPECT_EQ(dec.push(ids[0]), "");
    EXPECT_EQ(dec.finish(), "\xEF\xBF\xBD");
    // A fresh stream of all ids gives the emoji.
    std::string all;
    for (TokenId id : ids) all += dec.push(id);
    all += dec.finish();
    EXPECT_EQ(all, "\xF0\x9F\xA6\x99");
}

TEST(Robustness, InvalidUtf8IsRepairedNotFatal) {
    for (const char* v : {"llama-spm", "gpt-2", "falcon", "deepseek-llm"}) {
        auto tok = load(test::testdataPath(std::string("vocab/ggml-vocab-") + v + ".gguf"));
        ASSERT_TRUE(tok);
        const std::string bad = "ok \xFF\xFE \xC3 \xE2\x82 \xED\xA0\x80 end";
        const auto ids = tok->encode(bad, {.addSpecial = false});
        EXPECT_FALSE(ids.empty()) << v;
        EXPECT_EQ(tok->encode(bad, {.addSpecial = false}), tok->encode(utf8::sanitize(bad), {.addSpecial = false})) << v;
        EXPECT_TRUE(utf8::isValid(tok->decode(ids))) << v;
    }
}

TEST(Robustness, MegabyteOfTextIsFast) {
    const std::string python = test::readFile(test::testdataPath("text/python-sample.txt"));
    ASSERT_GT(python.size(), 500000u);
    for (const char* model : {"coder-f16.gguf", "stories260K.gguf"}) {
        auto tok = load(test::modelPath(model));
        ASSERT_TRUE(tok);
        const auto t0 = std::chrono::steady_clock::now();
        const auto ids = tok->encode(python, {.addSpecial = false});
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("[speed] %s: %zu bytes -> %zu tokens in %.3f s\n", model, python.size(), ids.size(), s);
        EXPECT_LT(s, 5.0) << "tokenizing 1 MB must take well under a second on an idle machine";
        EXPECT_EQ(tok->decode(ids), std::string(model) == "stories260K.gguf" ? " " + python : python);
    }
}

TEST(Robustness, LongRunsDoNotBlowUp) {
    auto tok = load(test::testdataPath("vocab/ggml-vocab-gpt-2.gguf"));
    ASSERT_TRUE(tok);
    for (const std::string& run : {std::string(300000, ' '), std::string(300000, 'a'), std::string(100000, '\n'),
                                   std::string(200000, '9')}) {
        const auto ids = tok->encode(run, {.addSpecial = false});
        EXPECT_FALSE(ids.empty());
        EXPECT_EQ(tok->decode(ids), run);
    }
}

TEST(Robustness, BadFilesGiveClearErrors) {
    auto missing = Tokenizer::fromGguf("/nonexistent/model.gguf");
    ASSERT_FALSE(missing.ok());

    const std::string path = ::testing::TempDir() + "/not-a-gguf.bin";
    {
        std::ofstream o(path, std::ios::binary);
        o << "this is not a gguf file at all";
    }
    auto junk = Tokenizer::fromGguf(path);
    ASSERT_FALSE(junk.ok());
    EXPECT_FALSE(junk.error().message.empty());
}

}  // namespace
