// The engine with a response_format constraint: real models (stories260K, coder) produce documents
// that parse and validate, greedy or sampled, and the request ends as soon as the document closes.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"
#include "SchemaValidator.h"
#include "hearth/engine.h"

using namespace hearth;
using nlohmann::json;

namespace {

class CollectingSink : public TokenSink {
public:
    void onTokens(RequestId, std::span<const TokenId> tokens, std::string_view text,
                  const std::vector<TokenLogprob>*) override {
        std::lock_guard<std::mutex> l(m_);
        text_ += text;
        count_ += static_cast<int>(tokens.size());
    }
    void onFinished(RequestId, FinishReason reason, const Usage& usage) override {
        std::lock_guard<std::mutex> l(m_);
        reason_ = reason;
        usage_ = usage;
        done_ = true;
        cv_.notify_all();
    }
    void onError(RequestId, const Error& error) override {
        std::lock_guard<std::mutex> l(m_);
        error_ = error.toString();
        done_ = true;
        cv_.notify_all();
    }
    void wait() {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return done_; });
    }
    std::string text_, error_;
    FinishReason reason_ = FinishReason::Error;
    Usage usage_;
    int count_ = 0;

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
};

std::unique_ptr<Engine> load(const std::string& model) {
    EngineConfig cfg;
    cfg.modelPath = test::modelPath(model);
    cfg.threads = 2;
    cfg.maxSeqs = 8;
    cfg.contextLength = 512;
    auto e = Engine::create(cfg);
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return e.ok() ? std::move(*e) : nullptr;
}

std::shared_ptr<CollectingSink> generate(Engine& engine, const std::string& prompt, const OutputConstraint& c,
                                         float temperature, uint64_t seed, int maxTokens) {
    GenerationRequest r;
    r.promptText = prompt;
    r.maxTokens = maxTokens;
    r.sampling.temperature = temperature;
    r.sampling.seed = seed;
    r.constraint = c;
    auto sink = std::make_shared<CollectingSink>();
    engine.submit(r, sink);
    sink->wait();
    return sink;
}

const char* kPersonSchema = R"({"type":"object","properties":{
    "name":{"type":"string","maxLength":12},"age":{"type":"integer"},"happy":{"type":"boolean"},
    "friends":{"type":"array","items":{"type":"string","maxLength":8},"maxItems":2}},
    "required":["name","age","happy","friends"]})";

}  // namespace

TEST(ConstrainedGeneration, StoriesModelFollowsTheSchema) {
    auto engine = load("stories260K.gguf");
    ASSERT_TRUE(engine);
    OutputConstraint c;
    c.kind = OutputConstraint::Kind::JsonSchema;
    c.jsonSchema = kPersonSchema;
    const json schema = json::parse(kPersonSchema);
    for (float temperature : {0.0f, 0.9f}) {
        for (uint64_t seed : {1u, 2u, 3u}) {
            auto s = generate(*engine, "Once upon a time", c, temperature, seed, 400);
            ASSERT_TRUE(s->error_.empty()) << s->error_;
            ASSERT_EQ(s->reason_, FinishReason::Stop) << s->text_;
            json doc = json::parse(s->text_, nullptr, false);
            ASSERT_FALSE(doc.is_discarded()) << s->text_;
            std::string why;
            EXPECT_TRUE(test::validates(doc, schema, schema, &why)) << why << "\n" << s->text_;
            if (temperature == 0.0f) break;  // greedy: one run is enough
        }
    }
}

TEST(ConstrainedGeneration, JsonObjectModeOnTheCodeModel) {
    auto engine = load("coder-f16.gguf");
    ASSERT_TRUE(engine);
    OutputConstraint c;
    c.kind = OutputConstraint::Kind::JsonObject;
    auto s = generate(*engine, "config = ", c, 0.7f, 11, 200);
    ASSERT_TRUE(s->error_.empty()) << s->error_;
    if (s->reason_ == FinishReason::Stop) {
        json doc = json::parse(s->text_, nullptr, false);
        ASSERT_FALSE(doc.is_discarded()) << s->text_;
        EXPECT_TRUE(doc.is_object());
    } else {
        EXPECT_EQ(s->reason_, FinishReason::Length);  // ran out of tokens inside the object
        EXPECT_EQ(s->text_.rfind('{', 0), 0u) << s->text_;
    }
}

TEST(ConstrainedGeneration, BadSchemaFailsTheRequest) {
    auto engine = load("stories260K.gguf");
    ASSERT_TRUE(engine);
    OutputConstraint c;
    c.kind = OutputConstraint::Kind::JsonSchema;
    c.jsonSchema = R"({"type":"string","pattern":"^a+$"})";
    auto s = generate(*engine, "Once", c, 0.0f, 1, 20);
    EXPECT_NE(s->error_.find("pattern"), std::string::npos) << s->error_;
}
