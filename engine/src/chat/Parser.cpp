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

std::string describe(const Token& t) {
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

}  // namespace

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

ExprPtr Parser::parseExpression(bool withCondexpr) { return withCondexpr ? parseCondexpr() : parseOr(); }

ExprPtr Parser::parseCondexpr() {
    NestingGuard guard(*this);
    const SourcePos pos = cur().pos;
    const size_t mark = unknown_.size();
    ExprPtr expr1 = parseOr();
    while (skipName("if")) {
        const bool soft = soft_;
        soft_ = true;
        ExprPtr test = parseOr();
        ExprPtr otherwise;
        if (skipName("else")) otherwise = parseCondexpr();
        soft_ = soft;
        // jinja2 compiles all three parts of an inline if in a soft frame.
        for (size_t i = mark; i < unknown_.size(); ++i) unknown_[i].soft = true;
        expr1 = std::make_unique<CondExpr>(pos, std::move(test), std::move(expr1), std::move(otherwise));
    }
    return expr1;
}

ExprPtr Parser::parseOr() {
    ExprPtr left = parseAnd();
    while (atName("or")) {
        const SourcePos pos = advance().pos;
        left = std::make_unique<BinaryExpr>(pos, BinaryExpr::Op::Or, std::move(left), parseAnd());
    }
    return left;
}

ExprPtr Parser::parseAnd() {
    ExprPtr left = parseNot();
    while (atName("and")) {
        const SourcePos pos = advance().pos;
        left = std::make_unique<BinaryExpr>(pos, BinaryExpr::Op::And, std::move(left), parseNot());
    }
    return left;
}

ExprPtr Parser::parseNot() {
    NestingGuard guard(*this);
    if (atName("not")) {
        const SourcePos pos = advance().pos;
        return std::make_unique<UnaryExpr>(pos, UnaryExpr::Op::Not, parseNot());
    }
    return parseCompare();
}

ExprPtr Parser::parseCompare() {
    const SourcePos pos = cur().pos;
    ExprPtr expr = parseMath1();
    std::unique_ptr<CompareExpr> cmp;
    for (;;) {
        CompareExpr::Op op;
        if (atOp("==")) op = CompareExpr::Op::Eq;
        else if (atOp("!=")) op = CompareExpr::Op::Ne;
        else if (atOp("<")) op = CompareExpr::Op::Lt;
        else if (atOp("<=")) op = CompareExpr::Op::Le;
        else if (atOp(">")) op = CompareExpr::Op::Gt;
        else if (atOp(">=")) op = CompareExpr::Op::Ge;
        else if (atName("in")) op = CompareExpr::Op::In;
        else if (atName("not") && peek().isName("in")) {
            advance();
            op = CompareExpr::Op::NotIn;
        } else {
            break;
        }
        advance();
        if (!cmp) cmp = std::make_unique<CompareExpr>(pos, std::move(expr));
        cmp->rest.emplace_back(op, parseMath1());
    }
    if (cmp) return cmp;
    return expr;
}

ExprPtr Parser::parseMath1() {
    ExprPtr left = parseConcat();
    while (atOp("+") || atOp("-")) {
        const Token& t = advance();
        const auto op = t.text == "+" ? BinaryExpr::Op::Add : BinaryExpr::Op::Sub;
        left = std::make_unique<BinaryExpr>(t.pos, op, std::move(left), parseConcat());
    }
    return left;
}

ExprPtr Parser::parseConcat() {
    const SourcePos pos = cur().pos;
    ExprPtr first = parseMath2();
    if (!atOp("~")) return first;
    auto c = std::make_unique<ConcatExpr>(pos);
    c->parts.push_back(std::move(first));
    while (skipOp("~")) c->parts.push_back(parseMath2());
    return c;
}

ExprPtr Parser::parseMath2() {
    ExprPtr left = parsePow();
    while (atOp("*") || atOp("/") || atOp("//") || atOp("%")) {
        const Token& t = advance();
        BinaryExpr::Op op = t.text == "*"   ? BinaryExpr::Op::Mul
                            : t.text == "/" ? BinaryExpr::Op::Div
                            : t.text == "//" ? BinaryExpr::Op::FloorDiv
                                             : BinaryExpr::Op::Mod;
        left = std::make_unique<BinaryExpr>(t.pos, op, std::move(left), parsePow());
    }
    return left;
}

ExprPtr Parser::parsePow() {
    ExprPtr left = parseUnary();
    while (atOp("**")) {
        const SourcePos pos = advance().pos;
        left = std::make_unique<BinaryExpr>(pos, BinaryExpr::Op::Pow, std::move(left), parseUnary());
    }
    return left;
}

ExprPtr Parser::parseUnary(bool withFilter) {
    NestingGuard guard(*this);
    ExprPtr node;
    if (atOp("-") || atOp("+")) {
        const Token& t = advance();
        node = std::make_unique<UnaryExpr>(t.pos, t.text == "-" ? UnaryExpr::Op::Neg : UnaryExpr::Op::Pos, parseUnary(false));
    } else {
        node = parsePrimary();
    }
    node = parsePostfix(std::move(node));
    if (withFilter) node = parseFilterExpr(std::move(node));
    return node;
}

ExprPtr Parser::parsePrimary() {
    const Token& t = cur();
    switch (t.type) {
        case Token::Type::Name: {
            advance();
            if (t.text == "true" || t.text == "True") return std::make_unique<ConstExpr>(t.pos, Value(true));
            if (t.text == "false" || t.text == "False") return std::make_unique<ConstExpr>(t.pos, Value(false));
            if (t.text == "none" || t.text == "None") return std::make_unique<ConstExpr>(t.pos, Value::none());
            return std::make_unique<NameExpr>(t.pos, t.text, intern(t.text));
        }
        case Token::Type::String: {
            std::string s = advance().text;
            while (cur().type == Token::Type::String) s += advance().text;
            return std::make_unique<ConstExpr>(t.pos, Value(std::move(s)));
        }
        case Token::Type::Integer: advance(); return std::make_unique<ConstExpr>(t.pos, Value(t.intValue));
        case Token::Type::Float: advance(); return std::make_unique<ConstExpr>(t.pos, Value(t.floatValue));
        case Token::Type::Operator:
            if (t.text == "(") {
                advance();
                ExprPtr e = parseTuple(false, true, {}, true);
                expectOp(")");
                return e;
            }
            if (t.text == "[") return parseList();
            if (t.text == "{") return parseDict();
            break;
        default: break;
    }
    failAt(t, "unexpected '" + describe(t) + "'");
}

bool Parser::isTupleEnd(const std::vector<std::string>& extraEnd) const {
    const Token& t = cur();
    if (t.type == Token::Type::VariableEnd || t.type == Token::Type::BlockEnd || t.isOp(")")) return true;
    return t.type == Token::Type::Name && std::find(extraEnd.begin(), extraEnd.end(), t.text) != extraEnd.end();
}

ExprPtr Parser::parseTuple(bool simplified, bool withCondexpr, const std::vector<std::string>& extraEnd, bool explicitParens) {
    const SourcePos pos = cur().pos;
    std::vector<ExprPtr> items;
    bool isTuple = false;
    for (;;) {
        if (!items.empty()) expectOp(",");
        if (isTupleEnd(extraEnd)) break;
        items.push_back(simplified ? parsePrimary() : parseExpression(withCondexpr));
        if (atOp(",")) isTuple = true;
        else break;
    }
    if (!isTuple) {
        if (!items.empty()) return std::move(items[0]);
        if (!explicitParens) failAt(cur(), "Expected an expression, got '" + describe(cur()) + "'");
    }
    auto t = std::make_unique<SequenceExpr>(Expr::Kind::Tuple, pos);
    t->items = std::move(items);
    return t;
}

ExprPtr Parser::parseList() {
    auto l = std::make_unique<SequenceExpr>(Expr::Kind::List, advance().pos);
    while (!atOp("]")) {
        if (!l->items.empty()) expectOp(",");
        if (atOp("]")) break;
        l->items.push_back(parseExpression());
    }
    expectOp("]");
    return l;
}

ExprPtr Parser::parseDict() {
    auto d = std::make_unique<DictExpr>(advance().pos);
    while (!atOp("}")) {
        if (!d->items.empty()) expectOp(",");
        if (atOp("}")) break;
        ExprPtr key = parseExpression();
        expectOp(":");
        d->items.emplace_back(std::move(key), parseExpression());
    }
    expectOp("}");
    return d;
}

ExprPtr Parser::parsePostfix(ExprPtr node) {
    for (;;) {
        if (atOp(".") || atOp("[")) {
            node = parseSubscript(std::move(node));
        } else if (atOp("(")) {
            auto call = std::make_unique<CallExpr>(cur().pos, std::move(node));
            call->args = parseCallArgs();
            node = std::move(call);
        } else {
            return node;
        }
    }
}

ExprPtr Parser::parseFilterExpr(ExprPtr node) {
    for (;;) {
        if (atOp("|")) {
            node = parseFilter(std::move(node), false);
        } else if (atName("is")) {
            node = parseTest(std::move(node));
        } else if (atOp("(")) {
            auto call = std::make_unique<CallExpr>(cur().pos, std::move(node));
            call->args = parseCallArgs();
            node = std::move(call);
        } else {
            return node;
        }
    }
}

ExprPtr Parser::parseSubscript(ExprPtr node) {
    const Token& t = advance();
    if (t.text == ".") {
        const Token& attr = advance();
        if (attr.type == Token::Type::Name) return std::make_unique<GetattrExpr>(t.pos, std::move(node), attr.text);
        if (attr.type != Token::Type::Integer) failAt(attr, "expected name or number");
        return std::make_unique<GetitemExpr>(t.pos, std::move(node), std::make_unique<ConstExpr>(attr.pos, Value(attr.intValue)));
    }
    std::vector<ExprPtr> args;
    while (!atOp("]")) {
        if (!args.empty()) expectOp(",");
        args.push_back(parseSubscribed());
    }
    expectOp("]");
    if (args.size() == 1) return std::make_unique<GetitemExpr>(t.pos, std::move(node), std::move(args[0]));
    auto tuple = std::make_unique<SequenceExpr>(Expr::Kind::Tuple, t.pos);
    tuple->items = std::move(args);
    return std::make_unique<GetitemExpr>(t.pos, std::move(node), std::move(tuple));
}

ExprPtr Parser::parseSubscribed() {
    const SourcePos pos = cur().pos;
    auto slice = std::make_unique<SliceExpr>(pos);
    if (atOp(":")) {
        advance();
    } else {
        ExprPtr e = parseExpression();
        if (!atOp(":")) return e;
        advance();
        slice->start = std::move(e);
    }
    if (!atOp(":") && !atOp("]") && !atOp(",")) slice->stop = parseExpression();
    if (skipOp(":")) {
        if (!atOp("]") && !atOp(",")) slice->step = parseExpression();
    }
    return slice;
}

ArgList Parser::parseCallArgs() {
    const Token& open = cur();
    expectOp("(");
    ArgList a;
    bool requireComma = false;
    auto ensure = [&](bool ok) {
        if (!ok) failAt(open, "invalid syntax for function call expression");
    };
    while (!atOp(")")) {
        if (requireComma) {
            expectOp(",");
            if (atOp(")")) break;
        }
        if (atOp("*")) {
            ensure(!a.dynArgs && !a.dynKwargs);
            advance();
            a.dynArgs = parseExpression();
        } else if (atOp("**")) {
            ensure(!a.dynKwargs);
            advance();
            a.dynKwargs = parseExpression();
        } else if (cur().type == Token::Type::Name && peek().isOp("=")) {
            ensure(!a.dynKwargs);
            std::string key = advance().text;
            advance();
            a.kwargs.emplace_back(std::move(key), parseExpression());
        } else {
            ensure(!a.dynArgs && !a.dynKwargs && a.kwargs.empty());
            a.args.push_back(parseExpression());
        }
        requireComma = true;
    }
    expectOp(")");
    return a;
}

ExprPtr Parser::parseFilter(ExprPtr node, bool startInline) {
    while (atOp("|") || startInline) {
        if (!startInline) advance();
        const Token& nameTok = expectName();
        std::string name = nameTok.text;
        while (atOp(".")) {
            advance();
            name += "." + expectName().text;
        }
        auto f = std::make_unique<FilterExpr>(Expr::Kind::Filter, nameTok.pos, std::move(node), name);
        if (atOp("(")) f->args = parseCallArgs();
        if (!isJinjaFilter(name)) {
            f->unknown = true;
            unknown_.push_back({f.get(), soft_});
        }
        node = std::move(f);
        startInline = false;
    }
    return node;
}

ExprPtr Parser::parseTest(ExprPtr node) {
    const Token& isTok = advance();
    const bool negated = skipName("not");
    const Token& nameTok = expectName();
    std::string name = nameTok.text;
    while (atOp(".")) {
        advance();
        name += "." + expectName().text;
    }
    auto test = std::make_unique<FilterExpr>(Expr::Kind::Test, isTok.pos, std::move(node), name);
    const Token& t = cur();
    if (t.isOp("(")) {
        test->args = parseCallArgs();
    } else if ((t.type == Token::Type::Name || t.type == Token::Type::String || t.type == Token::Type::Integer ||
                t.type == Token::Type::Float || t.isOp("[") || t.isOp("{")) &&
               !t.isName("else") && !t.isName("or") && !t.isName("and")) {
        if (t.isName("is")) failAt(t, "You cannot chain multiple tests with is");
        test->args.args.push_back(parsePostfix(parsePrimary()));
    }
    if (!isJinjaTest(name)) {
        test->unknown = true;
        unknown_.push_back({test.get(), soft_});
    }
    if (negated) return std::make_unique<UnaryExpr>(isTok.pos, UnaryExpr::Op::Not, std::move(test));
    return test;
}

}  // namespace hearth::chat
