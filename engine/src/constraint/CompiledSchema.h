#pragma once
// A JSON Schema reduced to what constrained decoding enforces, as a graph of nodes.
//
// Invariants: nodes[0] is the "any JSON value" node and nodes[root] is the document's schema; every
// node index stored in a node (items, property nodes, additional) is valid; a node whose `literals`
// is non-empty accepts exactly those texts (canonical JSON, no whitespace) and nothing else; a node
// has at least one type bit or a literal (an unsatisfiable node is a compile error, never a node);
// object nodes have at most kMaxProperties properties and literal lists at most kMaxLiterals
// entries (the decoder tracks them in fixed-size bit sets); minItems <= maxItems and
// minLength <= maxLength.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace hearth::constraint {

enum TypeBit : uint8_t {
    kNull = 1 << 0,
    kBoolean = 1 << 1,
    kInteger = 1 << 2,
    kNumber = 1 << 3,  // implies integer values too
    kString = 1 << 4,
    kArray = 1 << 5,
    kObject = 1 << 6,
    kAnyType = 0x7F,
};

inline constexpr int kMaxProperties = 256;
inline constexpr int kMaxLiterals = 256;
inline constexpr int kUnbounded = std::numeric_limits<int>::max();

struct PropertySpec {
    std::string key;  // the name as it appears between the quotes (JSON-escaped)
    int node = 0;
    bool required = false;
};

struct SchemaNode {
    uint8_t types = kAnyType;
    std::vector<std::string> literals;  // enum / const values as canonical JSON texts

    // objects
    std::vector<PropertySpec> properties;
    int additional = 0;  // schema of properties not listed; -1: none allowed

    // arrays
    int items = 0;
    int minItems = 0, maxItems = kUnbounded;

    // strings (lengths in code points)
    int minLength = 0, maxLength = kUnbounded;
};

struct CompiledSchema {
    std::vector<SchemaNode> nodes;  // nodes[0]: any value
    int root = 0;
};

}  // namespace hearth::constraint
