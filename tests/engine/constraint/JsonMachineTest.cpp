// The JSON automaton: accepts exactly the prefixes of valid documents, enforces the schema subset,
// and never reaches a state it cannot complete (random walks always finish with a valid document).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "SchemaValidator.h"
#include "constraint/JsonMachine.h"
#include "constraint/SchemaCompiler.h"

using namespace hearth;
using namespace hearth::constraint;
using nlohmann::json;

namespace {

CompiledSchema compileOrDie(const std::string& schema) {
    auto c = SchemaCompiler::compile(schema);
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
    return c.ok() ? std::move(*c) : SchemaCompiler::anyObject();
}

// Index of the first byte the machine rejects, or -1 when it takes all of `text`.
int firstRejected(JsonMachine& m, const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i)
        if (!m.feed(static_cast<uint8_t>(text[i]))) return static_cast<int>(i);
    return -1;
}

bool acceptsComplete(const CompiledSchema& s, const std::string& text) {
    JsonMachine m(s);
    return firstRejected(m, text) < 0 && m.complete();
}

int rejectsAt(const CompiledSchema& s, const std::string& text) {
    JsonMachine m(s);
    return firstRejected(m, text);
}

}  // namespace

TEST(JsonMachine, AcceptsValidObjects) {
    const CompiledSchema any = SchemaCompiler::anyObject();
    for (const std::string doc : {
             "{}",
             " {\n  \"a\" : 1 }",
             "{\"a\":[1,-0,2.5e-3,1E+9,-12.75,0.0,true,false,null,\"x\"],\"b\":{\"c\":{}},\"d\":[]}",
             "{\"esc\":\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\"}",
             "{\"utf8\":\"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80 \xED\x9F\xBF\"}",
             "{\"\":\"\",\"nested\":[[[[{}]]]]}",
         }) {
        EXPECT_TRUE(acceptsComplete(any, doc)) << doc;
        EXPECT_FALSE(json::parse(doc, nullptr, false).is_discarded()) << doc;
    }
}

TEST(JsonMachine, RejectsInvalidJsonAtTheRightByte) {
    const CompiledSchema any = SchemaCompiler::anyObject();
    struct Case { std::string text; int at; };
    for (const Case& c : std::vector<Case>{
             {"[1]", 0},                 // json_object: the root must be an object
             {"{\"a\":}", 5},
             {"{\"a\":1,}", 7},
             {"{'a':1}", 1},
             {"{\"a\":01}", 6},
             {"{\"a\":1.}", 7},
             {"{\"a\":-}", 6},
             {"{\"a\":1e123}", 9},      // exponents have at most two digits
             {"{\"a\":1e}", 7},
             {"{\"a\":\"\x01\"}", 6},     // raw control character in a string
             {"{\"a\":\"\\x\"}", 7},     // unknown escape
             {"{\"a\":\"\\ud800x\"}", 12}, // high surrogate without its low half
             {"{\"a\":\"\\udc00\"}", 9},   // lone low surrogate
             {"{\"a\":\"\xC0\x80\"}", 6},  // overlong encoding
             {"{\"a\":\"\xED\xA0\x80\"}", 7},  // UTF-8 encoded surrogate
             {"{\"a\":\"\xF4\x90\x80\x80\"}", 7},  // above U+10FFFF
             {"{\"a\":\"\x80\"}", 6},     // stray continuation byte
             {"{\"a\":tru}", 8},
             {"{\"a\":nul", -1},          // a prefix: not rejected, not complete
             {"{} ", 2},                  // nothing after the document
             {"{}{", 2},
             {"{\"a\" 1}", 5},
         }) {
        EXPECT_EQ(rejectsAt(any, c.text), c.at) << c.text;
    }
    EXPECT_FALSE(acceptsComplete(any, "{\"a\":nul"));
}

TEST(JsonMachine, LimitsKeepGenerationFinite) {
    const CompiledSchema any = SchemaCompiler::anyObject();
    EXPECT_TRUE(acceptsComplete(any, "{\"n\":" + std::string(kMaxIntegerLength, '7') + "}"));
    EXPECT_EQ(rejectsAt(any, "{\"n\":" + std::string(kMaxNumberLength + 1, '7') + "}"), 5 + kMaxNumberLength);
    EXPECT_TRUE(acceptsComplete(any, "{\n" + std::string(kMaxIndent, ' ') + "\"a\": 1,\n\t\"b\":\t2\n}"));
    EXPECT_EQ(rejectsAt(any, "{\n" + std::string(kMaxIndent + 1, ' ') + "}"), 2 + kMaxIndent);
    EXPECT_EQ(rejectsAt(any, "{  }"), 2);      // one space, not two
    EXPECT_EQ(rejectsAt(any, "{\n\n}"), 2);   // one newline per run
    EXPECT_EQ(rejectsAt(any, "{\r\n}"), 1);
    std::string deep = "{\"a\":";
    int opened = 1;
    while (rejectsAt(any, deep + "[") < 0 && opened < 200) { deep += "["; ++opened; }
    EXPECT_LT(opened, kMaxDepth);  // nesting is capped
    EXPECT_GT(opened, 40);
    // A number that still needs a digit is refused one character early, so it can always finish.
    const std::string almost = "{\"n\":1" + std::string(kMaxNumberLength - 2, '0');  // one short of the cap
    EXPECT_EQ(rejectsAt(any, almost + "e"), static_cast<int>(almost.size()));
    EXPECT_EQ(rejectsAt(any, almost + "0}"), -1);
}

TEST(JsonMachine, SchemaObjectsRequiredAndStrictKeys) {
    const CompiledSchema s = compileOrDie(R"({"type":"object","properties":{
        "name":{"type":"string"},"age":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},
        "required":["name","age"]})");
    EXPECT_TRUE(acceptsComplete(s, R"({"name":"Ada","age":36})"));
    EXPECT_TRUE(acceptsComplete(s, R"({ "age": 36, "tags": ["x", "y"], "name": "Ada" })"));
    EXPECT_EQ(rejectsAt(s, R"({"age":36})"), 9);                 // '}' before "name"
    EXPECT_EQ(rejectsAt(s, R"({"name":"A","extra":1})"), 13);    // unknown key, first byte
    EXPECT_EQ(rejectsAt(s, R"({"name":"A","name":"B"})"), 13);   // duplicate key
    EXPECT_EQ(rejectsAt(s, R"({"name":1})"), 8);                 // wrong type
    EXPECT_EQ(rejectsAt(s, R"({"name":"A","age":3.5})"), 19);    // integer has no fraction
    EXPECT_EQ(rejectsAt(s, R"({"name":"A","age":3,"tags":[1]})"), 28);
    // Every key used: no ',' may follow.
    EXPECT_EQ(rejectsAt(s, R"({"name":"A","age":3,"tags":[],)"), 29);
}

TEST(JsonMachine, FreeKeysWithAdditionalPropertiesSchema) {
    const CompiledSchema s = compileOrDie(R"({"type":"object","properties":{"id":{"type":"integer"}},
        "additionalProperties":{"type":"boolean"},"required":["id"]})");
    EXPECT_TRUE(acceptsComplete(s, R"({"x":true,"id":4,"y\"z":false})"));
    EXPECT_EQ(rejectsAt(s, R"({"x":1})"), 5);     // additional values are booleans
    EXPECT_EQ(rejectsAt(s, R"({"id":1,"id":2})"), 11);  // duplicate of a listed key: its closing quote
    EXPECT_TRUE(acceptsComplete(s, R"({"id":1,"idx":true})"));
}

TEST(JsonMachine, EnumsConstAndLiterals) {
    const CompiledSchema s = compileOrDie(R"({"type":"object","properties":{
        "color":{"enum":["red","green",null,7,12]},"v":{"const":{"k":[1,2]}}},"required":["color","v"]})");
    EXPECT_TRUE(acceptsComplete(s, R"({"color":"red","v":{"k":[1,2]}})"));
    EXPECT_TRUE(acceptsComplete(s, R"({"color":12,"v":{"k":[1,2]}})"));
    EXPECT_TRUE(acceptsComplete(s, R"({"color":7 ,"v":{"k":[1,2]}})"));
    EXPECT_TRUE(acceptsComplete(s, R"({"color":null,"v":{"k":[1,2]}})"));
    EXPECT_EQ(rejectsAt(s, R"({"color":"blue")"), 10);
    EXPECT_EQ(rejectsAt(s, R"({"color":1,)"), 10);  // "1" is only a prefix of 12
    EXPECT_EQ(rejectsAt(s, R"({"color":"red","v":{"k": [1,2]}})"), 24);  // const is matched compactly
}

TEST(JsonMachine, StringLengthsAndArrayCounts) {
    const CompiledSchema s = compileOrDie(R"({"type":"object","properties":{
        "code":{"type":"string","minLength":2,"maxLength":3},
        "xs":{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":2}},
        "required":["code","xs"]})");
    EXPECT_TRUE(acceptsComplete(s, R"({"code":"ab","xs":[1]})"));
    EXPECT_TRUE(acceptsComplete(s, "{\"code\":\"\xC3\xA9\\u00e9\xF0\x9F\x98\x80\",\"xs\":[1,2.5]}"));
    EXPECT_EQ(rejectsAt(s, R"({"code":"a")"), 10);
    EXPECT_EQ(rejectsAt(s, R"({"code":"abcd")"), 12);
    EXPECT_EQ(rejectsAt(s, R"({"code":"ab","xs":[])"), 19);
    EXPECT_EQ(rejectsAt(s, R"({"code":"ab","xs":[1,2,3])"), 22);
}

TEST(JsonMachine, AnyOfByTypeAndRecursiveRefs) {
    const CompiledSchema s = compileOrDie(R"({"$defs":{"node":{"type":"object","properties":{
        "value":{"anyOf":[{"type":"string"},{"type":"null"},{"type":"array","items":{"type":"integer"}}]},
        "children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value"]}},
        "$ref":"#/$defs/node"})");
    EXPECT_TRUE(acceptsComplete(s, R"({"value":"a","children":[{"value":null},{"value":[1,2],"children":[]}]})"));
    EXPECT_EQ(rejectsAt(s, R"({"value":true})"), 9);
    EXPECT_EQ(rejectsAt(s, R"({"value":"a","children":[{}]})"), 26);
}

TEST(JsonMachine, TopLevelScalarsAndArrays) {
    const CompiledSchema num = compileOrDie(R"({"type":"number"})");
    JsonMachine m(num);
    EXPECT_EQ(firstRejected(m, "-12.5"), -1);
    EXPECT_TRUE(m.complete());
    EXPECT_FALSE(m.finished());  // more digits could follow
    const CompiledSchema arr = compileOrDie(R"({"type":"array","items":{"type":"boolean"}})");
    JsonMachine a(arr);
    EXPECT_EQ(firstRejected(a, "[true, false]"), -1);
    EXPECT_TRUE(a.finished());
    const CompiledSchema str = compileOrDie(R"({"type":"string","maxLength":4})");
    JsonMachine t(str);
    EXPECT_EQ(firstRejected(t, "\"ab"), -1);
    int remaining = 0;
    ASSERT_TRUE(t.inPlainText(remaining));
    EXPECT_EQ(remaining, 2);
}

namespace {

// Walks the automaton with random accepted bytes (biased towards closing things) until the document
// is finished. Fails the test on a dead end; returns the document.
std::string randomDocument(const CompiledSchema& s, std::mt19937& rng, int maxSteps = 1500) {
    JsonMachine m(s), probe(s);
    std::string out;
    for (int step = 0; step < maxSteps; ++step) {
        if (m.finished()) return out;
        if (m.complete() && rng() % 8 == 0) return out;
        std::vector<uint8_t> ok, closing;
        for (int b = 0; b < 256; ++b) {
            probe.copyFrom(m);
            if (!probe.feed(static_cast<uint8_t>(b))) continue;
            ok.push_back(static_cast<uint8_t>(b));
            if (b == '"' || b == '}' || b == ']' || b == ',' || (step > 200 && b == 'n')) closing.push_back(static_cast<uint8_t>(b));
        }
        if (ok.empty()) {
            ADD_FAILURE() << "dead end after: " << out;
            return out;
        }
        const bool close = !closing.empty() && rng() % 3 == 0;
        const auto& pool = close ? closing : ok;
        const uint8_t b = pool[rng() % pool.size()];
        m.feed(b);
        out += static_cast<char>(b);
    }
    return out;
}

}  // namespace

TEST(JsonMachine, RandomWalksNeverDeadEndAndAlwaysValidate) {
    const std::vector<std::string> schemas = {
        R"({"type":"object"})",
        R"({"type":"object","properties":{"name":{"type":"string","maxLength":5},"n":{"type":"integer"},
            "kind":{"enum":["a","ab","b"]},"xs":{"type":"array","items":{"type":["number","null"]},"maxItems":3}},
            "required":["name","kind"]})",
        R"({"$defs":{"t":{"type":"object","properties":{"k":{"type":"array","items":{"$ref":"#/$defs/t"},"maxItems":2},
            "s":{"anyOf":[{"type":"string","minLength":1},{"type":"boolean"}]}},"required":["s"]}},"$ref":"#/$defs/t"})",
        R"({"type":"object","additionalProperties":{"type":"string"},"properties":{"id":{"const":5}}})",
        R"({"type":"array","items":{"type":"object","properties":{"q":{"type":"boolean"}},"required":["q"]},"minItems":2})",
    };
    std::mt19937 rng(1234);
    for (const auto& text : schemas) {
        const CompiledSchema s = compileOrDie(text);
        const json schemaJson = json::parse(text);
        int finished = 0;
        for (int walk = 0; walk < 60; ++walk) {
            const std::string doc = randomDocument(s, rng);
            JsonMachine check(s);
            ASSERT_EQ(firstRejected(check, doc), -1);
            if (!check.complete()) continue;  // ran out of steps inside a long string
            ++finished;
            json parsed = json::parse(doc, nullptr, false);
            ASSERT_FALSE(parsed.is_discarded()) << "does not parse: " << doc;
            std::string why;
            EXPECT_TRUE(test::validates(parsed, schemaJson, schemaJson, &why)) << why << "\nschema " << text << "\ndoc " << doc;
        }
        EXPECT_GT(finished, 45) << text;
    }
}
