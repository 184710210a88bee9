// The schema compiler: the supported subset compiles to the expected nodes; unsupported assertions
// and impossible schemas are errors that name the problem; hostile schemas fail cleanly.
#include <gtest/gtest.h>

#include <string>

#include "constraint/SchemaCompiler.h"
#include "hearth/output_constraint.h"

using namespace hearth;
using namespace hearth::constraint;

namespace {

std::string errorOf(const std::string& schema) {
    auto c = SchemaCompiler::compile(schema);
    return c.ok() ? std::string() : c.error().message;
}

}  // namespace

TEST(SchemaCompiler, ObjectPropertiesRequiredAndDefaults) {
    auto c = SchemaCompiler::compile(R"({"title":"P","description":"d","type":"object",
        "properties":{"a\"b":{"type":"string","format":"email"},"n":{"type":["integer","null"]}},"required":["n"]})");
    ASSERT_TRUE(c.ok()) << c.error().message;
    const SchemaNode& root = c->nodes[static_cast<size_t>(c->root)];
    EXPECT_EQ(root.types, kObject);
    ASSERT_EQ(root.properties.size(), 2u);
    EXPECT_EQ(root.properties[0].key, "a\\\"b");  // stored JSON-escaped
    EXPECT_FALSE(root.properties[0].required);
    EXPECT_TRUE(root.properties[1].required);
    EXPECT_EQ(root.additional, -1);  // listed properties and no additionalProperties: no others
    EXPECT_EQ(c->nodes[static_cast<size_t>(root.properties[1].node)].types, kInteger | kNull);
    auto open = SchemaCompiler::compile(R"({"type":"object"})");
    ASSERT_TRUE(open.ok());
    EXPECT_EQ(open->nodes[static_cast<size_t>(open->root)].additional, 0);
}

TEST(SchemaCompiler, EnumsAreFilteredByTypeAndCanonical) {
    auto c = SchemaCompiler::compile(R"({"type":"string","enum":["x", 1, "y", "x"]})");
    ASSERT_TRUE(c.ok()) << c.error().message;
    const auto& lits = c->nodes[static_cast<size_t>(c->root)].literals;
    ASSERT_EQ(lits.size(), 2u);
    EXPECT_EQ(lits[0], "\"x\"");
    EXPECT_EQ(lits[1], "\"y\"");
    auto optionalEnum = SchemaCompiler::compile(R"({"anyOf":[{"enum":["a","b"]},{"type":"null"}]})");
    ASSERT_TRUE(optionalEnum.ok()) << optionalEnum.error().message;
    EXPECT_EQ(optionalEnum->nodes[static_cast<size_t>(optionalEnum->root)].literals.size(), 3u);
}

TEST(SchemaCompiler, UnsupportedAndImpossibleSchemasAreErrors) {
    EXPECT_NE(errorOf(R"({"type":"string","pattern":"^a"})").find("pattern"), std::string::npos);
    EXPECT_NE(errorOf(R"({"type":"integer","minimum":3})").find("minimum"), std::string::npos);
    EXPECT_NE(errorOf(R"({"not":{}})").find("not"), std::string::npos);
    EXPECT_NE(errorOf(R"({"type":"array","uniqueItems":true})").find("uniqueItems"), std::string::npos);
    EXPECT_NE(errorOf(R"({"type":"wat"})").find("wat"), std::string::npos);
    EXPECT_NE(errorOf(R"({"anyOf":[{"type":"object"},{"type":"object","properties":{}}]})").find("different types"), std::string::npos);
    EXPECT_NE(errorOf(R"({"type":"string","minLength":3,"maxLength":2})").find("minLength"), std::string::npos);
    EXPECT_NE(errorOf(R"({"type":"string","enum":[1,2]})").find("enum"), std::string::npos);
    EXPECT_NE(errorOf(R"({"$ref":"https://example.com/s.json"})").find("local"), std::string::npos);
    EXPECT_FALSE(errorOf(R"({"$ref":"#/$defs/missing"})").empty());
    EXPECT_FALSE(errorOf(R"({"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})").empty());
    EXPECT_FALSE(errorOf("false").empty());
    EXPECT_FALSE(errorOf("{not json").empty());
    EXPECT_FALSE(errorOf(R"({"type":"array","minItems":-1})").empty());
    EXPECT_FALSE(errorOf(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["b"]})").empty());
    // Only infinite documents satisfy it: every node requires another one.
    EXPECT_NE(errorOf(R"({"type":"object","properties":{"next":{"$ref":"#"}},"required":["next"]})").find("finite"),
              std::string::npos);
}

TEST(SchemaCompiler, UnsatisfiableOptionalPartsArePruned) {
    auto c = SchemaCompiler::compile(R"({"type":"object","properties":{
        "loop":{"$ref":"#/$defs/loop"},"ok":{"type":"boolean"},
        "list":{"type":"array","items":{"$ref":"#/$defs/loop"}}},
        "$defs":{"loop":{"type":"object","properties":{"x":{"$ref":"#/$defs/loop"}},"required":["x"]}}})");
    ASSERT_TRUE(c.ok()) << c.error().message;
    const SchemaNode& root = c->nodes[static_cast<size_t>(c->root)];
    ASSERT_EQ(root.properties.size(), 2u);  // "loop" can never be completed
    EXPECT_EQ(root.properties[0].key, "list");  // (properties come in name order)
    EXPECT_EQ(root.properties[1].key, "ok");
    EXPECT_EQ(c->nodes[static_cast<size_t>(root.properties[0].node)].maxItems, 0);  // only [] fits
}

TEST(SchemaCompiler, HostileSchemasFailCleanly) {
    std::string deep;
    for (int i = 0; i < 500; ++i) deep += R"({"type":"array","items":)";
    deep += "{}";
    for (int i = 0; i < 500; ++i) deep += "}";
    EXPECT_NE(errorOf(deep).find("deep"), std::string::npos);
    EXPECT_FALSE(errorOf(R"({"type":"object","properties":5})").empty());
    EXPECT_FALSE(errorOf(R"({"type":"object","required":"a"})").empty());
    EXPECT_FALSE(errorOf(R"({"$ref":"#/%%%"})").empty());
    EXPECT_FALSE(errorOf(R"({"type":[]})").empty());
    EXPECT_FALSE(errorOf(R"({"anyOf":[]})").empty());
    EXPECT_FALSE(errorOf(R"({"type":"string","maxLength":"7"})").empty());
}

TEST(SchemaCompiler, PublicValidationEntryPoint) {
    OutputConstraint none;
    EXPECT_TRUE(validateOutputConstraint(none).ok());
    OutputConstraint obj;
    obj.kind = OutputConstraint::Kind::JsonObject;
    EXPECT_TRUE(validateOutputConstraint(obj).ok());
    OutputConstraint bad;
    bad.kind = OutputConstraint::Kind::JsonSchema;
    bad.jsonSchema = R"({"type":"string","pattern":"x"})";
    auto st = validateOutputConstraint(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::InvalidArgument);
}
