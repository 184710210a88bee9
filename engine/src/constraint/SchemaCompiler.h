#pragma once
// Compiles a JSON Schema (the subset constrained decoding can enforce) into a CompiledSchema.
//
// Supported: type (a name or a list), enum, const, nullable; objects with properties, required and
// additionalProperties (a bool or a schema; absent means "no others" when properties are listed,
// "any" otherwise); arrays with items, minItems, maxItems; strings with minLength, maxLength;
// anyOf / oneOf whose alternatives have distinct types (so the first character decides), allOf with
// one entry; local $ref ("#", "#/$defs/...", "#/definitions/...", any JSON pointer into the document),
// recursion included. Annotations are ignored (title, description, default, examples, format, ...).
// Keywords that assert something we cannot guarantee (pattern, minimum, multipleOf, not, if, ...) are
// an InvalidArgument error naming the keyword, so a response never claims a schema it did not follow.
//
// Invariants of the result: see CompiledSchema.h. Every node is finitely satisfiable: optional
// properties and array items that could only be satisfied by an infinite document are dropped, and a
// schema whose root cannot be satisfied is an error.

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "constraint/CompiledSchema.h"
#include "hearth/result.h"

namespace hearth::constraint {

class SchemaCompiler {
public:
    static Result<CompiledSchema> compile(std::string_view schemaJson);
    // response_format json_object: any JSON object.
    static CompiledSchema anyObject();

private:
    explicit SchemaCompiler(const nlohmann::json& document) : document_(document) {}

    Result<int> compileNode(const nlohmann::json& schema, int depth);
    Result<int> compileRef(const std::string& ref, int depth);
    Result<int> compileAlternatives(const nlohmann::json& alternatives, int depth);
    Status compileObject(const nlohmann::json& schema, SchemaNode& node, int depth);
    Status compileArray(const nlohmann::json& schema, SchemaNode& node, int depth);
    Status compileLiterals(const nlohmann::json& values, SchemaNode& node);
    int addNode(SchemaNode node);
    Status pruneUnsatisfiable();

    const nlohmann::json& document_;
    CompiledSchema out_;
    std::map<std::string, int> refSlots_;       // JSON pointer -> node slot
    std::map<int, int> pendingRefDepth_;        // slots being compiled -> container depth then
    int containerDepth_ = 0;                    // objects/arrays entered on the current path
};

}  // namespace hearth::constraint
