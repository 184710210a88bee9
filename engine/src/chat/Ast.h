#pragma once
// The syntax tree of a parsed template: expressions and statements, as jinja2's parser builds them.
//
// Invariants: every node has the source position of the token that starts it; child pointers are
// never null unless the field says "optional"; NameExpr::sym, Target::sym and MacroStmt::sym index
// Program::symbols (names are interned at parse time, so scopes are keyed by small integers);
// the tree is immutable after parsing and may be rendered by several threads at once.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "chat/JinjaError.h"
#include "chat/Value.h"

namespace hearth::chat {

struct Expr {
    enum class Kind {
        Const, Name, Getattr, Getitem, Slice, Call, Filter, Test, Unary, Binary, Concat, Compare, Cond,
        List, Tuple, Dict,
    };
    Expr(Kind k, SourcePos p) : kind(k), pos(p) {}
    virtual ~Expr() = default;
    Kind kind;
    SourcePos pos;
};
using ExprPtr = std::unique_ptr<Expr>;

struct ArgList {
    std::vector<ExprPtr> args;
    std::vector<std::pair<std::string, ExprPtr>> kwargs;
    ExprPtr dynArgs;    // optional: *args
    ExprPtr dynKwargs;  // optional: **kwargs
};

struct ConstExpr final : Expr {
    ConstExpr(SourcePos p, Value v) : Expr(Kind::Const, p), value(std::move(v)) {}
    Value value;
};

struct NameExpr final : Expr {
    NameExpr(SourcePos p, std::string n, int s) : Expr(Kind::Name, p), name(std::move(n)), sym(s) {}
    std::string name;
    int sym;
};

struct GetattrExpr final : Expr {
    GetattrExpr(SourcePos p, ExprPtr o, std::string a) : Expr(Kind::Getattr, p), object(std::move(o)), attr(std::move(a)) {}
    ExprPtr object;
    std::string attr;
};

struct GetitemExpr final : Expr {
    GetitemExpr(SourcePos p, ExprPtr o, ExprPtr i) : Expr(Kind::Getitem, p), object(std::move(o)), index(std::move(i)) {}
    ExprPtr object;
    ExprPtr index;  // a SliceExpr for x[a:b:c]
};

struct SliceExpr final : Expr {
    explicit SliceExpr(SourcePos p) : Expr(Kind::Slice, p) {}
    ExprPtr start, stop, step;  // each optional
};

struct CallExpr final : Expr {
    CallExpr(SourcePos p, ExprPtr c) : Expr(Kind::Call, p), callee(std::move(c)) {}
    ExprPtr callee;
    ArgList args;
};

// `input | name(args)`, and tests `input is name(args)`. For {% filter %} blocks and filtered
// {% set %} blocks the innermost input is null: it stands for the rendered body.
struct FilterExpr final : Expr {
    FilterExpr(Kind k, SourcePos p, ExprPtr in, std::string n) : Expr(k, p), input(std::move(in)), name(std::move(n)) {}
    ExprPtr input;  // optional (see above)
    std::string name;
    ArgList args;
    // The name is not a jinja2 filter/test at all: jinja2 raises when it is reached (only possible
    // inside an if, where jinja2 defers the error to run time).
    bool unknown = false;
};

struct UnaryExpr final : Expr {
    enum class Op { Neg, Pos, Not };
    UnaryExpr(SourcePos p, Op o, ExprPtr e) : Expr(Kind::Unary, p), op(o), operand(std::move(e)) {}
    Op op;
    ExprPtr operand;
};

struct BinaryExpr final : Expr {
    enum class Op { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, And, Or };
    BinaryExpr(SourcePos p, Op o, ExprPtr l, ExprPtr r) : Expr(Kind::Binary, p), op(o), left(std::move(l)), right(std::move(r)) {}
    Op op;
    ExprPtr left, right;
};

struct ConcatExpr final : Expr {
    explicit ConcatExpr(SourcePos p) : Expr(Kind::Concat, p) {}
    std::vector<ExprPtr> parts;
};

struct CompareExpr final : Expr {
    enum class Op { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn };
    CompareExpr(SourcePos p, ExprPtr f) : Expr(Kind::Compare, p), first(std::move(f)) {}
    ExprPtr first;
    std::vector<std::pair<Op, ExprPtr>> rest;
};

struct CondExpr final : Expr {
    CondExpr(SourcePos p, ExprPtr t, ExprPtr a, ExprPtr b)
        : Expr(Kind::Cond, p), test(std::move(t)), then(std::move(a)), otherwise(std::move(b)) {}
    ExprPtr test, then;
    ExprPtr otherwise;  // optional: undefined when missing
};

// List and Tuple literals.
struct SequenceExpr final : Expr {
    SequenceExpr(Kind k, SourcePos p) : Expr(k, p) {}
    std::vector<ExprPtr> items;
};

struct DictExpr final : Expr {
    explicit DictExpr(SourcePos p) : Expr(Kind::Dict, p) {}
    std::vector<std::pair<ExprPtr, ExprPtr>> items;
};

// Where {% set %}, {% for %} and {% with %} store values.
struct Target {
    enum class Kind { Name, Tuple, NamespaceAttr };
    Kind kind = Kind::Name;
    SourcePos pos;
    std::string name;  // Name, NamespaceAttr (the namespace variable)
    int sym = -1;
    std::string attr;  // NamespaceAttr
    std::vector<Target> items;  // Tuple
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct Stmt {
    enum class Kind { Output, If, For, Set, SetBlock, Macro, CallBlock, FilterBlock, With, Break, Continue, Scoped };
    Stmt(Kind k, SourcePos p) : kind(k), pos(p) {}
    virtual ~Stmt() = default;
    Kind kind;
    SourcePos pos;
};

// Template text and {{ expressions }}, in order (text is a ConstExpr string).
struct OutputStmt final : Stmt {
    explicit OutputStmt(SourcePos p) : Stmt(Kind::Output, p) {}
    std::vector<ExprPtr> items;
};

struct IfStmt final : Stmt {
    explicit IfStmt(SourcePos p) : Stmt(Kind::If, p) {}
    std::vector<std::pair<ExprPtr, Body>> branches;  // if, elif...
    Body otherwise;
};

struct ForStmt final : Stmt {
    explicit ForStmt(SourcePos p) : Stmt(Kind::For, p) {}
    Target target;
    ExprPtr iter;
    ExprPtr filter;  // optional: for x in y if filter
    Body body;
    Body otherwise;
    bool recursive = false;
};

struct SetStmt final : Stmt {
    explicit SetStmt(SourcePos p) : Stmt(Kind::Set, p) {}
    Target target;
    ExprPtr value;
};

struct SetBlockStmt final : Stmt {
    explicit SetBlockStmt(SourcePos p) : Stmt(Kind::SetBlock, p) {}
    Target target;
    ExprPtr filter;  // optional filter chain applied to the body's text
    Body body;
};

struct MacroParam {
    std::string name;
    int sym = -1;
    ExprPtr defaultValue;  // optional
};

struct MacroStmt final : Stmt {
    explicit MacroStmt(SourcePos p) : Stmt(Kind::Macro, p) {}
    std::string name;
    int sym = -1;
    std::vector<MacroParam> params;
    Body body;
    // The body refers to these names, so the macro accepts extra arguments / a caller (jinja2 decides
    // this from the body, and rejects extra arguments otherwise).
    bool usesCaller = false, usesVarargs = false, usesKwargs = false;
};

struct CallBlockStmt final : Stmt {
    explicit CallBlockStmt(SourcePos p) : Stmt(Kind::CallBlock, p) {}
    ExprPtr call;                      // a CallExpr
    std::unique_ptr<MacroStmt> caller; // the body, as the macro passed in as `caller`
};

struct FilterBlockStmt final : Stmt {
    explicit FilterBlockStmt(SourcePos p) : Stmt(Kind::FilterBlock, p) {}
    ExprPtr filter;
    Body body;
};

struct WithStmt final : Stmt {
    explicit WithStmt(SourcePos p) : Stmt(Kind::With, p) {}
    std::vector<std::pair<Target, ExprPtr>> assignments;
    Body body;
};

// A body rendered in its own scope: transformers' {% generation %} (a call block in jinja2).
struct ScopedStmt final : Stmt {
    explicit ScopedStmt(SourcePos p) : Stmt(Kind::Scoped, p) {}
    Body body;
};

struct Program {
    Body body;
    std::vector<std::string> symbols;  // sym -> name
};

}  // namespace hearth::chat
