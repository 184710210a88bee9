#pragma once
// Builds the syntax tree from tokens with jinja2's grammar and operator precedence (lowest first):
// `x if c else y`, or, and, not, comparisons (== != < <= > >= in, not in), + -, ~, * / // %, **,
// unary - +, then postfix (.attr, [index], [a:b:c], calls) and filters/tests (| f, is t).
//
// Tags: if/elif/else, for (with `if` filter, else, recursive), set (plain, namespace attribute,
// block), macro, call, filter, with, break/continue (the loopcontrols extension), print,
// and transformers' generation. A tag jinja2 has but this interpreter does not (extends, block,
// include, import, from, autoescape) is a parse error that names it; so is an unknown tag.
//
// Like jinja2, a filter or test name that jinja2 does not know fails the parse unless it sits
// inside an if statement or an inline if, where jinja2 defers the failure to the moment the
// expression runs.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chat/Ast.h"
#include "chat/Token.h"

namespace hearth::chat {

class Parser {
public:
    // Throws JinjaError (Syntax or Unsupported) with the position of the problem.
    static std::unique_ptr<Program> parse(std::string_view source);

    // The names jinja2 3.1 defines (whether or not this interpreter implements them).
    static bool isJinjaFilter(std::string_view name);
    static bool isJinjaTest(std::string_view name);

private:
    explicit Parser(std::vector<Token> tokens);

    const Token& cur() const { return tokens_[index_]; }
    const Token& peek(size_t n = 1) const;
    const Token& advance();
    bool atOp(const char* op) const { return cur().isOp(op); }
    bool atName(const char* name) const { return cur().isName(name); }
    bool skipOp(const char* op);
    bool skipName(const char* name);
    void expectOp(const char* op);
    const Token& expectName();
    void expectName(const char* name);
    void expectBlockEnd();
    [[noreturn]] void failAt(const Token& t, const std::string& message) const;
    static std::string describe(const Token& t);  // for messages: "end of template", "string", "+"
    int intern(const std::string& name);

    Body subparse(const std::vector<std::string>& endTags);
    // Parses the body of a tag up to one of endTags; leaves cur() at that end tag's name.
    Body parseBody(const std::vector<std::string>& endTags);
    StmtPtr parseStatement();
    StmtPtr parseFor();
    StmtPtr parseIf();
    StmtPtr parseSet();
    StmtPtr parseMacro();
    StmtPtr parseCallBlock();
    StmtPtr parseFilterBlock();
    StmtPtr parseWith();
    void parseSignature(MacroStmt& macro);
    Target parseAssignTarget(bool withTuple, bool nameOnly, const std::vector<std::string>& extraEnd, bool withNamespace);
    Target toTarget(const Expr& e);

    ExprPtr parseExpression(bool withCondexpr = true);
    ExprPtr parseCondexpr();
    ExprPtr parseKeywordChain(const char* keyword, BinaryExpr::Op op, ExprPtr (Parser::*operand)());
    ExprPtr parseOr();
    ExprPtr parseAnd();
    ExprPtr parseNot();
    ExprPtr parseCompare();
    ExprPtr parseMath1();
    ExprPtr parseConcat();
    ExprPtr parseMath2();
    ExprPtr parsePow();
    ExprPtr parseUnary(bool withFilter = true);
    ExprPtr parsePrimary();
    ExprPtr parseTuple(bool simplified, bool withCondexpr, const std::vector<std::string>& extraEnd, bool explicitParens);
    ExprPtr parseList();
    ExprPtr parseDict();
    ExprPtr parsePostfix(ExprPtr node);
    ExprPtr parseFilterExpr(ExprPtr node);
    ExprPtr parseSubscript(ExprPtr node);
    ExprPtr parseSubscribed();
    ArgList parseCallArgs();
    ExprPtr parseFilter(ExprPtr node, bool startInline);
    ExprPtr parseTest(ExprPtr node);
    bool isTupleEnd(const std::vector<std::string>& extraEnd) const;

    std::vector<Token> tokens_;
    size_t index_ = 0;
    std::unique_ptr<Program> program_;
    std::unordered_map<std::string, int> symbolIndex_;
    // Filter/test names jinja2 does not know, and whether jinja2 would defer their failure.
    struct UnknownName {
        FilterExpr* node;
        bool soft;
    };
    std::vector<UnknownName> unknown_;
    std::vector<MacroStmt*> openMacros_;  // macros whose bodies are being parsed
    bool soft_ = false;                   // inside an if (jinja2's "soft frame")
    int loopDepth_ = 0;                   // for break/continue
    int nesting_ = 0;                     // expression and block nesting (bounded: no stack overflow)
    static constexpr int kMaxNesting = 200;
    struct NestingGuard {
        Parser& p;
        explicit NestingGuard(Parser& parser);
        ~NestingGuard() { --p.nesting_; }
    };
};

}  // namespace hearth::chat
