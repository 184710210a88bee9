#pragma once
// One token of a Jinja template, as the lexer hands it to the parser.
//
// Invariants: Data tokens hold template text after whitespace control was applied (never empty);
// String tokens hold the literal's decoded value; Integer/Float tokens hold the parsed number;
// Operator tokens hold the operator's spelling ("==", "//", "(", ...); pos is where the token
// starts (1-based line and column, columns counted in code points).

#include <cstdint>
#include <string>

#include "chat/JinjaError.h"

namespace hearth::chat {

struct Token {
    enum class Type {
        Data,           // template text outside tags
        VariableBegin,  // {{
        VariableEnd,    // }}
        BlockBegin,     // {%
        BlockEnd,       // %}
        Name,
        String,
        Integer,
        Float,
        Operator,
        Eof,
    };

    Type type = Type::Eof;
    std::string text;  // Data, Name, String (decoded), Operator spelling
    int64_t intValue = 0;
    double floatValue = 0;
    SourcePos pos;

    bool isOp(const char* op) const { return type == Type::Operator && text == op; }
    bool isName(const char* name) const { return type == Type::Name && text == name; }
};

}  // namespace hearth::chat
