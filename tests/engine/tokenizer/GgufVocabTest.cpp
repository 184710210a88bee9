// Every case of every GGUF vocab in shared/testdata/vocab that ships its .gguf: the ids must be
// Hugging Face's encode(text, add_special_tokens=False) exactly. Prints pass counts per vocab.
#include <gtest/gtest.h>

#include <filesystem>

#include "../TestPaths.h"
#include "VocabCases.h"

using namespace hearth;

namespace {

struct VocabParam {
    const char* name;
};

class GgufVocab : public ::testing::TestWithParam<const char*> {};

TEST_P(GgufVocab, MatchesReferenceIds) {
    const std::string base = test::testdataPath(std::string("vocab/ggml-vocab-") + GetParam() + ".gguf");
    ASSERT_TRUE(std::filesystem::exists(base)) << base;
    auto cases = test::readVocabCases(base + ".inp", base + ".out");
    ASSERT_FALSE(cases.empty()) << "no cases for " << base;
    auto tok = Tokenizer::fromGguf(base);
    ASSERT_TRUE(tok.ok()) << tok.error().toString();

    size_t pass = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const auto got = (*tok)->encode(cases[i].input, {.addSpecial = false, .parseSpecial = false});
        if (got == cases[i].expected) {
            ++pass;
        } else {
            ADD_FAILURE() << GetParam() << " case " << i << " input '" << cases[i].input << "'\n  expected "
                          << test::idsToString(cases[i].expected) << "\n  got      " << test::idsToString(got);
        }
        // Decoding gives the input back whenever the vocab covers it losslessly (byte-level
        // and byte-fallback vocabs do; SentencePiece adds the leading space).
    }
    std::printf("[vocab] %s: %zu/%zu cases pass\n", GetParam(), pass, cases.size());
    EXPECT_EQ(pass, cases.size());
}

INSTANTIATE_TEST_SUITE_P(AllShipped, GgufVocab,
                         ::testing::Values("llama-spm", "phi-3", "gpt-2", "deepseek-coder", "deepseek-llm", "falcon",
                                           "mpt", "refact", "starcoder", "bert-bge"),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

}  // namespace

namespace {

// Vocabs shipped without test cases: they load, and text survives encode -> decode.
TEST(GgufVocabRoundTrip, BaichuanAndGptNeox) {
    const std::string text = "Hello, world!\n\tCode: x += 42; 안녕하세요 🦙 Ünïcödé  spaces   end";
    for (const char* v : {"baichuan", "gpt-neox"}) {
        auto tok = Tokenizer::fromGguf(test::testdataPath(std::string("vocab/ggml-vocab-") + v + ".gguf"));
        ASSERT_TRUE(tok.ok()) << v << ": " << tok.error().toString();
        const auto ids = (*tok)->encode(text, {.addSpecial = false});
        EXPECT_GT(ids.size(), 10u) << v;
        EXPECT_LT(ids.size(), text.size()) << v;
        const std::string back = (*tok)->decode(ids);
        EXPECT_EQ(back, std::string(v) == std::string("baichuan") ? " " + text : text) << v;
    }
}

}  // namespace
