// The two real models: prompt_tokens in testdata/reference (llama.cpp's, BOS as the metadata
// asks) must come out of encode(prompt); decode(tokens) must give the reference text.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"
#include "VocabCases.h"

using namespace hearth;

namespace {

void checkReference(const std::string& jsonName, const std::string& modelFilter) {
    const auto text = test::readFile(test::testdataPath("reference/" + jsonName));
    ASSERT_FALSE(text.empty()) << jsonName;
    const auto cases = nlohmann::json::parse(text);
    std::shared_ptr<const Tokenizer> tok;
    int checked = 0;
    for (const auto& c : cases) {
        const std::string model = c.at("model").get<std::string>();
        if (model != modelFilter) continue;
        if (!tok) {
            auto t = Tokenizer::fromGguf(test::modelPath(model));
            ASSERT_TRUE(t.ok()) << t.error().toString();
            tok = *t;
        }
        const auto prompt = c.at("prompt").get<std::string>();
        const auto expected = c.at("prompt_tokens").get<std::vector<TokenId>>();
        EXPECT_EQ(test::idsToString(tok->encode(prompt)), test::idsToString(expected)) << "prompt '" << prompt << "'";
        const auto generated = c.at("tokens").get<std::vector<TokenId>>();
        EXPECT_EQ(tok->decode(generated), c.at("text").get<std::string>()) << "prompt '" << prompt << "'";

        // Streaming the same ids gives the same text, in valid UTF-8 chunks.
        IncrementalDecoder inc(tok);
        std::string streamed;
        for (TokenId id : generated) streamed += inc.push(id);
        streamed += inc.finish();
        EXPECT_EQ(streamed, c.at("text").get<std::string>());
        ++checked;
    }
    EXPECT_GT(checked, 0) << "no cases for " << modelFilter;
    std::printf("[reference] %s: %d cases checked\n", modelFilter.c_str(), checked);
}

TEST(ReferenceModels, Stories260K) { checkReference("stories260K.json", "stories260K.gguf"); }
TEST(ReferenceModels, Coder) { checkReference("coder.json", "coder-f16.gguf"); }
TEST(ReferenceModels, CoderDraftSharesTokenizer) {
    auto a = Tokenizer::fromGguf(test::modelPath("coder-f16.gguf"));
    auto b = Tokenizer::fromGguf(test::modelPath("coder-draft-f16.gguf"));
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ((*a)->fingerprint(), (*b)->fingerprint());
    auto s = Tokenizer::fromGguf(test::modelPath("stories260K.gguf"));
    ASSERT_TRUE(s.ok());
    EXPECT_NE((*a)->fingerprint(), (*s)->fingerprint());
}

TEST(ReferenceModels, MetadataDrivenSpecials) {
    auto t = Tokenizer::fromGguf(test::modelPath("coder-f16.gguf"));
    ASSERT_TRUE(t.ok());
    const auto& tok = **t;
    EXPECT_FALSE(tok.addsBos());
    EXPECT_EQ(tok.bos(), 0);
    EXPECT_EQ(tok.eos(), 0);
    EXPECT_TRUE(tok.isEndOfGeneration(0));
    EXPECT_EQ(tok.findSpecial("<|endoftext|>"), 0);
    EXPECT_EQ(tok.eosText(), "<|endoftext|>");
    // Special text is characters unless parsing is asked for.
    EXPECT_NE(tok.encode("<|endoftext|>"), std::vector<TokenId>{0});
    EXPECT_EQ(tok.encode("<|endoftext|>", {.addSpecial = true, .parseSpecial = true}), std::vector<TokenId>{0});
    EXPECT_EQ(tok.decode(std::vector<TokenId>{0}), "<|endoftext|>");
    EXPECT_EQ(tok.decode(std::vector<TokenId>{0}, true), "");

    auto s = Tokenizer::fromGguf(test::modelPath("stories260K.gguf"));
    ASSERT_TRUE(s.ok());
    EXPECT_TRUE((*s)->addsBos());
    EXPECT_EQ((*s)->bos(), 1);
    EXPECT_EQ((*s)->eos(), 2);
    EXPECT_TRUE((*s)->isEndOfGeneration(2));
    EXPECT_EQ((*s)->encode("", {.addSpecial = false}), std::vector<TokenId>{});
}

}  // namespace
