#include "chat/Parser.h"

#include <algorithm>
#include <set>

#include "chat/Lexer.h"

namespace hearth::chat {
namespace {

const std::set<std::string, std::less<>>& jinjaFilters() {
    static const std::set<std::string, std::less<>> names = {
        "abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e", "escape",
        "filesizeformat", "first", "float", "forceescape", "format", "groupby", "indent", "int", "items", "join",
        "last", "length", "list", "lower", "map", "max", "min", "pprint", "random", "reject", "rejectattr",
        "replace", "reverse", "round", "safe", "select", "selectattr", "slice", "sort", "string", "striptags",
        "sum", "title", "tojson", "trim", "truncate", "unique", "upper", "urlencode", "urlize", "wordcount",
        "wordwrap", "xmlattr"};
    return names;
}

const std::set<std::string, std::less<>>& jinjaTests() {
    static const std::set<std::string, std::less<>> names = {
        "boolean", "callable", "defined", "divisibleby", "eq", "equalto", "escaped", "even", "false", "filter",
        "float", "ge", "gt", "greaterthan", "in", "integer", "iterable", "le", "lower", "lessthan", "lt", "mapping",
        "ne", "none", "number", "odd", "sameas", "sequence", "string", "test", "true", "undefined", "upper",
        "==", "!=", ">", ">=", "<", "<="};
    return names;
}

}  // namespace

std::string Parser::describe(const Token& t) {
    switch (t.type) {
        case Token::Type::Data: return "template data";
        case Token::Type::VariableBegin: return "begin of print statement";
        case Token::Type::VariableEnd: return "end of print statement";
        case Token::Type::BlockBegin: return "begin of statement block";
        case Token::Type::BlockEnd: return "end of statement block";
        case Token::Type::Eof: return "end of template";
        case Token::Type::String: return "string";
        case Token::Type::Integer: return "integer";
        case Token::Type::Float: return "float";
        default: return t.text;
    }
}

bool Parser::isJinjaFilter(std::string_view name) { return jinjaFilters().count(name) > 0; }
bool Parser::isJinjaTest(std::string_view name) { return jinjaTests().count(name) > 0; }

std::unique_ptr<Program> Parser::parse(std::string_view source) {
    Parser p(Lexer::tokenize(source));
    p.program_->body = p.subparse({});
    for (const auto& u : p.unknown_) {
        if (u.soft) continue;
        const bool isTest = u.node->kind == Expr::Kind::Test;
        JinjaError e(JinjaError::Kind::Syntax, std::string("No ") + (isTest ? "test" : "filter") + " named '" + u.node->name + "'");
        e.setPos(u.node->pos);
        throw e;
    }
    return std::move(p.program_);
}

Parser::NestingGuard::NestingGuard(Parser& parser) : p(parser) {
    if (++p.nesting_ > kMaxNesting) {
        --p.nesting_;
        p.failAt(p.cur(), "the template nests expressions or blocks deeper than " + std::to_string(kMaxNesting) + " levels");
    }
}

Parser::Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)), program_(std::make_unique<Program>()) {}

const Token& Parser::peek(size_t n) const { return tokens_[std::min(index_ + n, tokens_.size() - 1)]; }

const Token& Parser::advance() {
    const Token& t = tokens_[index_];
    if (index_ + 1 < tokens_.size()) ++index_;
    return t;
}

bool Parser::skipOp(const char* op) {
    if (!atOp(op)) return false;
    advance();
    return true;
}

bool Parser::skipName(const char* name) {
    if (!atName(name)) return false;
    advance();
    return true;
}

void Parser::failAt(const Token& t, const std::string& message) const {
    JinjaError e(JinjaError::Kind::Syntax, message);
    e.setPos(t.pos);
    throw e;
}

void Parser::expectOp(const char* op) {
    if (!atOp(op)) failAt(cur(), std::string("expected token '") + op + "', got '" + describe(cur()) + "'");
    advance();
}

const Token& Parser::expectName() {
    if (cur().type != Token::Type::Name) failAt(cur(), "expected a name, got '" + describe(cur()) + "'");
    return advance();
}

void Parser::expectName(const char* name) {
    if (!atName(name)) failAt(cur(), std::string("expected '") + name + "', got '" + describe(cur()) + "'");
    advance();
}

void Parser::expectBlockEnd() {
    if (cur().type != Token::Type::BlockEnd) failAt(cur(), "expected end of statement block, got '" + describe(cur()) + "'");
    advance();
}

int Parser::intern(const std::string& name) {
    auto [it, inserted] = symbolIndex_.emplace(name, static_cast<int>(program_->symbols.size()));
    if (inserted) program_->symbols.push_back(name);
    if (name == "caller" || name == "varargs" || name == "kwargs") {
        for (MacroStmt* m : openMacros_) {
            if (name == "caller") m->usesCaller = true;
            else if (name == "varargs") m->usesVarargs = true;
            else m->usesKwargs = true;
        }
    }
    return it->second;
}

Body Parser::subparse(const std::vector<std::string>& endTags) {
    Body body;
    OutputStmt* out = nullptr;
    auto output = [&]() -> OutputStmt& {
        if (!out) {
            auto o = std::make_unique<OutputStmt>(cur().pos);
            out = o.get();
            body.push_back(std::move(o));
        }
        return *out;
    };
    while (cur().type != Token::Type::Eof) {
        const Token& t = cur();
        if (t.type == Token::Type::Data) {
            output().items.push_back(std::make_unique<ConstExpr>(t.pos, Value(t.text)));
            advance();
        } else if (t.type == Token::Type::VariableBegin) {
            OutputStmt& o = output();
            advance();
            o.items.push_back(parseTuple(false, true, {}, false));
            if (cur().type != Token::Type::VariableEnd) failAt(cur(), "expected end of print statement, got '" + describe(cur()) + "'");
            advance();
        } else if (t.type == Token::Type::BlockBegin) {
            out = nullptr;
            advance();
            if (cur().type == Token::Type::Name &&
                std::find(endTags.begin(), endTags.end(), cur().text) != endTags.end())
                return body;
            body.push_back(parseStatement());
            expectBlockEnd();
        } else {
            failAt(t, "unexpected '" + describe(t) + "'");
        }
    }
    if (!endTags.empty()) {
        std::string tags;
        for (const auto& e : endTags) tags += (tags.empty() ? "'" : " or '") + e + "'";
        failAt(cur(), "Unexpected end of template. Jinja was looking for the following tags: " + tags);
    }
    return body;
}

Body Parser::parseBody(const std::vector<std::string>& endTags) {
    skipOp(":");
    expectBlockEnd();
    return subparse(endTags);
}

StmtPtr Parser::parseStatement() {
    NestingGuard guard(*this);
    const Token& t = cur();
    if (t.type != Token::Type::Name) failAt(t, "tag name expected");
    const std::string& name = t.text;
    if (name == "for") return parseFor();
    if (name == "if") return parseIf();
    if (name == "set") return parseSet();
    if (name == "macro") return parseMacro();
    if (name == "call") return parseCallBlock();
    if (name == "filter") return parseFilterBlock();
    if (name == "with") return parseWith();
    if (name == "break" || name == "continue") {
        if (loopDepth_ == 0) failAt(t, "'" + name + "' outside a loop");
        auto s = std::make_unique<Stmt>(name == "break" ? Stmt::Kind::Break : Stmt::Kind::Continue, t.pos);
        advance();
        return s;
    }
    if (name == "print") {
        auto out = std::make_unique<OutputStmt>(t.pos);
        advance();
        while (cur().type != Token::Type::BlockEnd) {
            if (!out->items.empty()) expectOp(",");
            out->items.push_back(parseExpression());
        }
        return out;
    }
    if (name == "generation") {
        // transformers parses it as a call block: its body is a macro (no soft frame, no loop).
        auto s = std::make_unique<ScopedStmt>(t.pos);
        advance();
        const bool soft = soft_;
        const int loops = loopDepth_;
        soft_ = false;
        loopDepth_ = 0;
        s->body = parseBody({"endgeneration"});
        soft_ = soft;
        loopDepth_ = loops;
        advance();
        return s;
    }
    if (name == "extends" || name == "block" || name == "include" || name == "import" || name == "from" ||
        name == "autoescape") {
        JinjaError e(JinjaError::Kind::Unsupported, "unsupported tag '" + name + "' (templates that load other templates are not supported)");
        e.setPos(t.pos);
        throw e;
    }
    failAt(t, "Encountered unknown tag '" + name + "'");
}

StmtPtr Parser::parseFor() {
    auto s = std::make_unique<ForStmt>(advance().pos);
    s->target = parseAssignTarget(true, false, {"in"}, false);
    expectName("in");
    s->iter = parseTuple(false, false, {"recursive"}, false);
    const bool soft = soft_;
    soft_ = false;
    if (skipName("if")) s->filter = parseExpression();
    s->recursive = skipName("recursive");
    ++loopDepth_;
    s->body = parseBody({"endfor", "else"});
    --loopDepth_;
    if (advance().text == "else") {
        s->otherwise = parseBody({"endfor"});
        advance();
    }
    soft_ = soft;
    return s;
}

StmtPtr Parser::parseIf() {
    auto s = std::make_unique<IfStmt>(advance().pos);
    const bool soft = soft_;
    soft_ = true;
    for (;;) {
        ExprPtr test = parseTuple(false, false, {}, false);
        Body body = parseBody({"elif", "else", "endif"});
        s->branches.emplace_back(std::move(test), std::move(body));
        const Token& t = advance();
        if (t.text == "elif") continue;
        if (t.text == "else") {
            s->otherwise = parseBody({"endif"});
            advance();
        }
        break;
    }
    soft_ = soft;
    return s;
}

StmtPtr Parser::parseSet() {
    const SourcePos pos = advance().pos;
    Target target = parseAssignTarget(true, false, {}, true);
    if (skipOp("=")) {
        auto s = std::make_unique<SetStmt>(pos);
        s->target = std::move(target);
        s->value = parseTuple(false, true, {}, false);
        return s;
    }
    auto s = std::make_unique<SetBlockStmt>(pos);
    s->target = std::move(target);
    const bool soft = soft_;
    soft_ = false;
    if (atOp("|")) s->filter = parseFilter(nullptr, false);
    s->body = parseBody({"endset"});
    soft_ = soft;
    advance();
    return s;
}

void Parser::parseSignature(MacroStmt& macro) {
    expectOp("(");
    while (!atOp(")")) {
        if (!macro.params.empty()) expectOp(",");
        const Token& name = expectName();
        MacroParam p;
        p.name = name.text;
        p.sym = intern(name.text);
        if (skipOp("=")) p.defaultValue = parseExpression();
        else if (!macro.params.empty() && macro.params.back().defaultValue)
            failAt(name, "non-default argument follows default argument");
        macro.params.push_back(std::move(p));
    }
    expectOp(")");
}

StmtPtr Parser::parseMacro() {
    auto s = std::make_unique<MacroStmt>(advance().pos);
    const Token& name = expectName();
    s->name = name.text;
    s->sym = intern(name.text);
    const bool soft = soft_;
    const int loops = loopDepth_;
    soft_ = false;
    loopDepth_ = 0;
    openMacros_.push_back(s.get());
    parseSignature(*s);
    s->body = parseBody({"endmacro"});
    openMacros_.pop_back();
    soft_ = soft;
    loopDepth_ = loops;
    advance();
    return s;
}

StmtPtr Parser::parseCallBlock() {
    auto s = std::make_unique<CallBlockStmt>(advance().pos);
    s->caller = std::make_unique<MacroStmt>(s->pos);
    s->caller->name = "caller";
    const bool soft = soft_;
    const int loops = loopDepth_;
    soft_ = false;
    loopDepth_ = 0;
    if (atOp("(")) parseSignature(*s->caller);
    s->call = parseExpression();
    if (s->call->kind != Expr::Kind::Call) failAt(cur(), "expected call");
    openMacros_.push_back(s->caller.get());
    s->caller->body = parseBody({"endcall"});
    openMacros_.pop_back();
    soft_ = soft;
    loopDepth_ = loops;
    advance();
    return s;
}

StmtPtr Parser::parseFilterBlock() {
    auto s = std::make_unique<FilterBlockStmt>(advance().pos);
    const bool soft = soft_;
    soft_ = false;
    s->filter = parseFilter(nullptr, true);
    s->body = parseBody({"endfilter"});
    soft_ = soft;
    advance();
    return s;
}

StmtPtr Parser::parseWith() {
    auto s = std::make_unique<WithStmt>(advance().pos);
    while (cur().type != Token::Type::BlockEnd) {
        if (!s->assignments.empty()) expectOp(",");
        Target t = parseAssignTarget(true, false, {}, false);
        expectOp("=");
        s->assignments.emplace_back(std::move(t), parseExpression());
    }
    const bool soft = soft_;
    soft_ = false;
    s->body = parseBody({"endwith"});
    soft_ = soft;
    advance();
    return s;
}

Target Parser::toTarget(const Expr& e) {
    Target t;
    t.pos = e.pos;
    if (e.kind == Expr::Kind::Name) {
        const auto& n = static_cast<const NameExpr&>(e);
        t.kind = Target::Kind::Name;
        t.name = n.name;
        t.sym = n.sym;
        if (n.name == "true" || n.name == "false" || n.name == "none" || n.name == "True" || n.name == "False" || n.name == "None")
            failAt(cur(), "can't assign to const");
        return t;
    }
    if (e.kind == Expr::Kind::Tuple) {
        t.kind = Target::Kind::Tuple;
        for (const auto& item : static_cast<const SequenceExpr&>(e).items) t.items.push_back(toTarget(*item));
        return t;
    }
    JinjaError err(JinjaError::Kind::Syntax, "can't assign to this expression");
    err.setPos(e.pos);
    throw err;
}

Target Parser::parseAssignTarget(bool withTuple, bool nameOnly, const std::vector<std::string>& extraEnd, bool withNamespace) {
    if (withNamespace && cur().type == Token::Type::Name && peek().isOp(".")) {
        Target t;
        t.kind = Target::Kind::NamespaceAttr;
        t.pos = cur().pos;
        t.name = advance().text;
        t.sym = intern(t.name);
        advance();
        t.attr = expectName().text;
        return t;
    }
    if (nameOnly) {
        Target t;
        t.pos = cur().pos;
        t.name = expectName().text;
        t.sym = intern(t.name);
        return t;
    }
    ExprPtr e = withTuple ? parseTuple(true, true, extraEnd, false) : parsePrimary();
    return toTarget(*e);
}

}  // namespace hearth::chat
