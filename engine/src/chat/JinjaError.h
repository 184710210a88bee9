#pragma once
// The one exception type inside the template interpreter. Evaluation is deeply recursive, so a
// failure unwinds with this exception to ChatTemplate::parse()/render(), which turn it into a
// hearth::Error; it never leaves engine/src/chat.
//
// Invariants: kind says which Python exception jinja2 would raise in the same place (the tests
// only require that both raise, but the kind makes messages read like jinja2's); line/column are
// 1-based and 0 until the innermost template node that saw the failure records its position.

#include <exception>
#include <string>
#include <utility>

namespace hearth::chat {

struct SourcePos {
    int line = 0;
    int column = 0;
};

class JinjaError : public std::exception {
public:
    enum class Kind {
        Syntax,        // TemplateSyntaxError: the template does not parse
        Undefined,     // UndefinedError: an operation on an undefined value
        Type,          // TypeError
        Attribute,     // AttributeError (a filter called a method the value lacks)
        Value,         // ValueError
        Index,         // IndexError (str.format's positional fields)
        Key,           // KeyError (str.format's and %-format's named fields)
        Security,      // SecurityError: the sandbox forbids it (e.g. list.append)
        Raised,        // raise_exception(message) called by the template
        Runtime,       // TemplateRuntimeError (e.g. an unknown filter reached at run time)
        Unsupported,   // a construct this interpreter does not implement
        Arithmetic,    // ZeroDivisionError, OverflowError
    };

    JinjaError(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

    Kind kind() const { return kind_; }
    const std::string& message() const { return message_; }
    const SourcePos& pos() const { return pos_; }
    bool hasPos() const { return pos_.line > 0; }
    void setPos(SourcePos pos) { pos_ = pos; }
    const char* what() const noexcept override { return message_.c_str(); }

    static const char* kindName(Kind kind);
    // "TypeError: can only concatenate str (not "int") to str (line 3, column 14)".
    std::string describe() const;

private:
    Kind kind_;
    std::string message_;
    SourcePos pos_;
};

[[noreturn]] inline void fail(JinjaError::Kind kind, std::string message) {
    throw JinjaError(kind, std::move(message));
}
[[noreturn]] inline void failType(std::string message) { fail(JinjaError::Kind::Type, std::move(message)); }
[[noreturn]] inline void failUnsupported(std::string message) {
    fail(JinjaError::Kind::Unsupported, std::move(message));
}

}  // namespace hearth::chat
