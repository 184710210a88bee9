#include "chat/JinjaError.h"

namespace hearth::chat {

const char* JinjaError::kindName(Kind kind) {
    switch (kind) {
        case Kind::Syntax: return "TemplateSyntaxError";
        case Kind::Undefined: return "UndefinedError";
        case Kind::Type: return "TypeError";
        case Kind::Attribute: return "AttributeError";
        case Kind::Value: return "ValueError";
        case Kind::Index: return "IndexError";
        case Kind::Key: return "KeyError";
        case Kind::Security: return "SecurityError";
        case Kind::Raised: return "raise_exception";
        case Kind::Runtime: return "TemplateRuntimeError";
        case Kind::Unsupported: return "unsupported";
        case Kind::Arithmetic: return "ArithmeticError";
    }
    return "error";
}

std::string JinjaError::describe() const {
    std::string s = std::string(kindName(kind_)) + ": " + message_;
    if (hasPos()) s += " (line " + std::to_string(pos_.line) + ", column " + std::to_string(pos_.column) + ")";
    return s;
}

}  // namespace hearth::chat
