#pragma once
// Splits Jinja template source into tokens, with the whitespace rules Hugging Face's environment
// uses: trim_blocks (the first newline after a block or comment tag is dropped), lstrip_blocks
// (spaces and tabs before a block or comment tag at the start of a line are dropped), the manual
// controls "{%-" / "-%}" / "{{-" / "-}}" / "{#-" / "-#}" (all whitespace on that side is dropped)
// and "+" (no stripping); comments vanish; {% raw %} content becomes plain data.
//
// Like jinja2: "\r\n" and "\r" become "\n" everywhere, and one trailing newline at the end of the
// source is dropped (keep_trailing_newline is off).

#include <string>
#include <string_view>
#include <vector>

#include "chat/Token.h"

namespace hearth::chat {

class Lexer {
public:
    // Throws JinjaError(Syntax) with the position of the problem.
    static std::vector<Token> tokenize(std::string_view source);

private:
    explicit Lexer(std::string source);

    void run();
    void lexTagBody(Token::Type endType);
    bool lexRaw(size_t tagStart, bool openerStrip);
    bool lexTagEnd(Token::Type endType);
    void lexExpressionToken();
    void emitData(std::string text, SourcePos pos);
    SourcePos posAt(size_t offset);
    [[noreturn]] void syntaxError(const std::string& message, size_t offset);
    size_t skipSpace(size_t from) const;

    std::string src_;
    size_t pos_ = 0;
    bool lineStarting_ = true;
    std::vector<char> brackets_;  // expected closing brackets inside the current tag
    std::vector<Token> tokens_;
    // Incremental line/column tracking for posAt().
    size_t trackOffset_ = 0;
    int trackLine_ = 1;
    int trackColumn_ = 1;
};

}  // namespace hearth::chat
