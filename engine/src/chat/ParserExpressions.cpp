// The expression grammar of Parser (declared in Parser.h), in jinja2's precedence order.
#include <algorithm>

#include "chat/Parser.h"

namespace hearth::chat {
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

// `a or b or c` / `a and b`: left-associative chains of one keyword operator.
ExprPtr Parser::parseKeywordChain(const char* keyword, BinaryExpr::Op op, ExprPtr (Parser::*operand)()) {
    ExprPtr left = (this->*operand)();
    while (atName(keyword)) {
        const SourcePos pos = advance().pos;
        left = std::make_unique<BinaryExpr>(pos, op, std::move(left), (this->*operand)());
    }
    return left;
}

ExprPtr Parser::parseOr() { return parseKeywordChain("or", BinaryExpr::Op::Or, &Parser::parseAnd); }
ExprPtr Parser::parseAnd() { return parseKeywordChain("and", BinaryExpr::Op::And, &Parser::parseNot); }

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
