#include "chat/Interpreter.h"

#include "chat/Filters.h"
#include "chat/Globals.h"
#include "chat/JinjaError.h"
#include "chat/LoopObject.h"
#include "chat/Operators.h"
#include "chat/Sandbox.h"
#include "chat/Tests.h"

namespace hearth::chat {
namespace {

// A {% macro %} (or a call block's caller) bound to the scope it was defined in.
struct MacroCallable final : CallableObject {
    MacroCallable(const MacroStmt& m, ScopePtr c) : macro(m), closure(std::move(c)) {}
    std::string name() const override { return macro.name; }
    Value call(Interpreter& in, CallArgs& args) override { return in.callMacro(macro, closure, args); }
    bool isMacro() const override { return true; }

    const MacroStmt& macro;
    ScopePtr closure;
};

}  // namespace

Interpreter::Interpreter(const Program& program, std::tm now) : program_(program), now_(now), root_(newScope(nullptr)) {
    globals_.resize(program.symbols.size());
    for (size_t i = 0; i < program.symbols.size(); ++i) globals_[i] = globals::lookup(program.symbols[i]);
    loopSym_ = symbolOf("loop");
    callerSym_ = symbolOf("caller");
    varargsSym_ = symbolOf("varargs");
    kwargsSym_ = symbolOf("kwargs");
}

Interpreter::~Interpreter() {
    // Macros hold the scope they were defined in, and that scope holds them: break such cycles
    // (and any made through namespaces) so that nothing of a render outlives it.
    for (auto& weak : scopes_) {
        if (auto s = weak.lock()) {
            s->vars.clear();
            s->parent.reset();
        }
    }
    for (auto& weak : namespaces_)
        if (auto d = weak.lock()) d->entries.clear();
}

ScopePtr Interpreter::newScope(const ScopePtr& parent) {
    auto s = std::make_shared<Scope>(parent);
    scopes_.push_back(s);
    return s;
}

void Interpreter::trackNamespace(const std::shared_ptr<DictObject>& attrs) { namespaces_.push_back(attrs); }

int Interpreter::symbolOf(std::string_view name) const {
    for (size_t i = 0; i < program_.symbols.size(); ++i)
        if (program_.symbols[i] == name) return static_cast<int>(i);
    return -1;
}

std::string Interpreter::render() {
    std::string out;
    out_.push_back(&out);
    exec(program_.body, root_);
    out_.pop_back();
    return out;
}

void Interpreter::countStep() {
    if (++steps_ > kMaxSteps)
        fail(JinjaError::Kind::Runtime, "the template ran more than " + std::to_string(kMaxSteps) + " loop iterations and calls");
}

void Interpreter::checkSize(size_t bytes) {
    if (bytes > kMaxOutputBytes)
        fail(JinjaError::Kind::Runtime, "the rendered text grew beyond " + std::to_string(kMaxOutputBytes >> 20) + " MiB");
}

Interpreter::Flow Interpreter::exec(const Body& body, const ScopePtr& scope) {
    for (const auto& stmt : body) {
        Flow f;
        try {
            f = execStmt(*stmt, scope);
        } catch (JinjaError& e) {
            if (!e.hasPos()) e.setPos(stmt->pos);
            throw;
        }
        if (f != Flow::Normal) return f;
    }
    return Flow::Normal;
}

std::string Interpreter::capture(const Body& body, const ScopePtr& scope) {
    std::string text;
    out_.push_back(&text);
    try {
        exec(body, scope);
    } catch (...) {
        out_.pop_back();
        throw;
    }
    out_.pop_back();
    return text;
}

Interpreter::Flow Interpreter::execStmt(const Stmt& stmt, const ScopePtr& scope) {
    switch (stmt.kind) {
        case Stmt::Kind::Output: {
            std::string& out = *out_.back();
            for (const auto& item : static_cast<const OutputStmt&>(stmt).items) {
                if (item->kind == Expr::Kind::Const && static_cast<const ConstExpr&>(*item).value.isString()) {
                    out += static_cast<const ConstExpr&>(*item).value.str();  // template text
                } else {
                    out += eval(*item, scope).toStr();
                }
            }
            checkSize(out.size());
            return Flow::Normal;
        }
        case Stmt::Kind::If: {
            const auto& s = static_cast<const IfStmt&>(stmt);
            for (const auto& [test, body] : s.branches)
                if (eval(*test, scope).truthy()) return exec(body, scope);
            return exec(s.otherwise, scope);
        }
        case Stmt::Kind::For:
            execFor(static_cast<const ForStmt&>(stmt), scope);
            return Flow::Normal;
        case Stmt::Kind::Set: {
            const auto& s = static_cast<const SetStmt&>(stmt);
            assign(s.target, eval(*s.value, scope), *scope);
            return Flow::Normal;
        }
        case Stmt::Kind::SetBlock: {
            const auto& s = static_cast<const SetBlockStmt&>(stmt);
            Value text(capture(s.body, newScope(scope)));
            if (s.filter) text = evalFilter(static_cast<const FilterExpr&>(*s.filter), scope, &text);
            assign(s.target, std::move(text), *scope);
            return Flow::Normal;
        }
        case Stmt::Kind::Macro: {
            const auto& s = static_cast<const MacroStmt&>(stmt);
            scope->set(s.sym, Value::callable(std::make_shared<MacroCallable>(s, scope)));
            return Flow::Normal;
        }
        case Stmt::Kind::CallBlock: {
            const auto& s = static_cast<const CallBlockStmt&>(stmt);
            const auto& call = static_cast<const CallExpr&>(*s.call);
            Value callee = eval(*call.callee, scope);
            CallArgs args = evalArgs(call.args, scope);
            args.kwargs.emplace_back("caller", Value::callable(std::make_shared<MacroCallable>(*s.caller, scope)));
            *out_.back() += this->call(callee, args).toStr();
            return Flow::Normal;
        }
        case Stmt::Kind::FilterBlock: {
            const auto& s = static_cast<const FilterBlockStmt&>(stmt);
            Value text(capture(s.body, newScope(scope)));
            *out_.back() += evalFilter(static_cast<const FilterExpr&>(*s.filter), scope, &text).toStr();
            return Flow::Normal;
        }
        case Stmt::Kind::With: {
            const auto& s = static_cast<const WithStmt&>(stmt);
            auto inner = newScope(scope);
            std::vector<Value> values;
            for (const auto& [target, expr] : s.assignments) values.push_back(eval(*expr, scope));
            for (size_t i = 0; i < values.size(); ++i) assign(s.assignments[i].first, values[i], *inner);
            return exec(s.body, inner);
        }
        case Stmt::Kind::Scoped: {
            *out_.back() += capture(static_cast<const ScopedStmt&>(stmt).body, newScope(scope));
            return Flow::Normal;
        }
        case Stmt::Kind::Break: return Flow::Break;
        case Stmt::Kind::Continue: return Flow::Continue;
    }
    return Flow::Normal;
}

void Interpreter::execFor(const ForStmt& s, const ScopePtr& scope) {
    Value iterable = eval(*s.iter, scope);
    runLoop(s, scope, iterable.iterate(), 0);
}

void Interpreter::runLoop(const ForStmt& s, const ScopePtr& scope, std::vector<Value> items, int depth0) {
    if (s.filter) {
        std::vector<Value> kept;
        auto test = newScope(scope);
        for (auto& item : items) {
            countStep();
            test->vars.clear();
            assign(s.target, item, *test);
            if (eval(*s.filter, test).truthy()) kept.push_back(std::move(item));
        }
        items = std::move(kept);
    }
    if (items.empty()) {
        exec(s.otherwise, newScope(scope));
        return;
    }
    if (loopSym_ < 0) {
        // The template never mentions `loop`: no loop object is needed.
        ScopePtr iteration;
        for (auto& item : items) {
            countStep();
            if (!iteration || iteration.use_count() > 1) iteration = newScope(scope);
            else iteration->vars.clear();
            assign(s.target, std::move(item), *iteration);
            if (exec(s.body, iteration) == Flow::Break) break;
        }
        return;
    }
    auto loop = std::make_shared<LoopObject>();
    loop->items = items;
    loop->depth0 = depth0;
    if (s.recursive) {
        // loop(children) renders the same loop over children, one level deeper, and returns the text.
        loop->recurse = [this, &s, scope, depth0](CallArgs& a) {
            if (a.args.size() != 1 || !a.kwargs.empty()) failType("loop() takes exactly one argument");
            if (++callDepth_ > kMaxCallDepth) {
                --callDepth_;
                fail(JinjaError::Kind::Runtime, "recursive loop nested deeper than " + std::to_string(kMaxCallDepth));
            }
            std::string text;
            out_.push_back(&text);
            try {
                runLoop(s, scope, a.args[0].iterate(), depth0 + 1);
            } catch (...) {
                out_.pop_back();
                --callDepth_;
                throw;
            }
            out_.pop_back();
            --callDepth_;
            return Value(std::move(text));
        };
    }
    const Value loopValue = Value::loop(loop);
    ScopePtr iteration;
    for (size_t i = 0; i < items.size(); ++i) {
        countStep();
        loop->index0 = i;
        // A fresh scope per iteration (jinja2 forgets an iteration's {% set %}s), reused when no
        // macro defined in the body kept a reference to it.
        if (!iteration || iteration.use_count() > 1) iteration = newScope(scope);
        else iteration->vars.clear();
        iteration->set(loopSym_, loopValue);
        assign(s.target, items[i], *iteration);
        if (exec(s.body, iteration) == Flow::Break) break;
    }
}

void Interpreter::assign(const Target& target, Value value, Scope& scope) {
    switch (target.kind) {
        case Target::Kind::Name:
            scope.set(target.sym, std::move(value));
            return;
        case Target::Kind::Tuple: {
            std::vector<Value> parts = value.iterate();
            if (parts.size() < target.items.size())
                fail(JinjaError::Kind::Value, "not enough values to unpack (expected " + std::to_string(target.items.size()) +
                                                  ", got " + std::to_string(parts.size()) + ")");
            if (parts.size() > target.items.size())
                fail(JinjaError::Kind::Value, "too many values to unpack (expected " + std::to_string(target.items.size()) + ")");
            for (size_t i = 0; i < parts.size(); ++i) assign(target.items[i], std::move(parts[i]), scope);
            return;
        }
        case Target::Kind::NamespaceAttr: {
            const Value* ns = scope.find(target.sym);
            if (!ns || !ns->isNamespace()) fail(JinjaError::Kind::Runtime, "cannot assign attribute on non-namespace object");
            ns->dictObj().set(Value(target.attr), std::move(value));
            return;
        }
    }
}

Value Interpreter::eval(const Expr& e, const ScopePtr& scope) {
    try {
        return evalImpl(e, scope);
    } catch (JinjaError& err) {
        if (!err.hasPos()) err.setPos(e.pos);
        throw;
    }
}

Value Interpreter::lookup(const NameExpr& n, const ScopePtr& scope) {
    if (const Value* v = scope->find(n.sym)) return *v;
    const Value& g = globals_[static_cast<size_t>(n.sym)];
    if (!g.isUndefined()) return g;
    return Value::undefined("'" + n.name + "' is undefined");
}

Value Interpreter::evalImpl(const Expr& e, const ScopePtr& scope) {
    switch (e.kind) {
        case Expr::Kind::Const: return static_cast<const ConstExpr&>(e).value;
        case Expr::Kind::Name: return lookup(static_cast<const NameExpr&>(e), scope);
        case Expr::Kind::Getattr: {
            const auto& g = static_cast<const GetattrExpr&>(e);
            return sandbox::getAttr(eval(*g.object, scope), g.attr);
        }
        case Expr::Kind::Getitem: {
            const auto& g = static_cast<const GetitemExpr&>(e);
            Value obj = eval(*g.object, scope);
            if (g.index->kind == Expr::Kind::Slice) return evalSlice(obj, static_cast<const SliceExpr&>(*g.index), scope);
            return sandbox::getItem(obj, eval(*g.index, scope));
        }
        case Expr::Kind::Slice: failUnsupported("a slice outside a subscript");
        case Expr::Kind::Call: {
            const auto& c = static_cast<const CallExpr&>(e);
            Value callee = eval(*c.callee, scope);
            CallArgs args = evalArgs(c.args, scope);
            return call(callee, args);
        }
        case Expr::Kind::Filter:
        case Expr::Kind::Test: return evalFilter(static_cast<const FilterExpr&>(e), scope, nullptr);
        case Expr::Kind::Unary: {
            const auto& u = static_cast<const UnaryExpr&>(e);
            Value v = eval(*u.operand, scope);
            if (u.op == UnaryExpr::Op::Not) return Value(!v.truthy());
            return operators::unary(u.op, v);
        }
        case Expr::Kind::Binary: {
            const auto& b = static_cast<const BinaryExpr&>(e);
            Value left = eval(*b.left, scope);
            if (b.op == BinaryExpr::Op::And) return left.truthy() ? eval(*b.right, scope) : left;
            if (b.op == BinaryExpr::Op::Or) return left.truthy() ? left : eval(*b.right, scope);
            Value right = eval(*b.right, scope);
            Value r = operators::binary(b.op, left, right);
            if (r.isString()) checkSize(r.str().size());
            return r;
        }
        case Expr::Kind::Concat: {
            std::string s;
            for (const auto& part : static_cast<const ConcatExpr&>(e).parts) s += eval(*part, scope).toStr();
            checkSize(s.size());
            return Value(std::move(s));
        }
        case Expr::Kind::Compare: return evalCompare(static_cast<const CompareExpr&>(e), scope);
        case Expr::Kind::Cond: {
            const auto& c = static_cast<const CondExpr&>(e);
            if (eval(*c.test, scope).truthy()) return eval(*c.then, scope);
            if (c.otherwise) return eval(*c.otherwise, scope);
            return Value::undefined("the inline if-expression on line " + std::to_string(e.pos.line) +
                                    " evaluated to false and no else section was defined.");
        }
        case Expr::Kind::List:
        case Expr::Kind::Tuple: {
            std::vector<Value> items;
            for (const auto& item : static_cast<const SequenceExpr&>(e).items) items.push_back(eval(*item, scope));
            return e.kind == Expr::Kind::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
        }
        case Expr::Kind::Dict: {
            auto d = std::make_shared<DictObject>();
            for (const auto& [k, v] : static_cast<const DictExpr&>(e).items) {
                Value key = eval(*k, scope);
                d->set(std::move(key), eval(*v, scope));
            }
            return Value::dict(std::move(d));
        }
    }
    failUnsupported("expression");
}

Value Interpreter::evalSlice(const Value& obj, const SliceExpr& s, const ScopePtr& scope) {
    Value start = s.start ? eval(*s.start, scope) : Value::none();
    Value stop = s.stop ? eval(*s.stop, scope) : Value::none();
    Value step = s.step ? eval(*s.step, scope) : Value::none();
    return sandbox::slice(obj, start, stop, step);
}

Value Interpreter::evalCompare(const CompareExpr& c, const ScopePtr& scope) {
    Value left = eval(*c.first, scope);
    for (const auto& [op, expr] : c.rest) {
        Value right = eval(*expr, scope);
        bool ok = false;
        switch (op) {
            case CompareExpr::Op::Eq: ok = left.equals(right); break;
            case CompareExpr::Op::Ne: ok = !left.equals(right); break;
            case CompareExpr::Op::Lt: ok = compareValues(left, right, "<") < 0; break;
            case CompareExpr::Op::Le: ok = compareValues(left, right, "<=") <= 0; break;
            case CompareExpr::Op::Gt: ok = compareValues(left, right, ">") > 0; break;
            case CompareExpr::Op::Ge: ok = compareValues(left, right, ">=") >= 0; break;
            case CompareExpr::Op::In: ok = operators::contains(right, left); break;
            case CompareExpr::Op::NotIn: ok = !operators::contains(right, left); break;
        }
        if (!ok) return Value(false);
        left = std::move(right);
    }
    return Value(true);
}

CallArgs Interpreter::evalArgs(const ArgList& list, const ScopePtr& scope) {
    CallArgs a;
    a.args.reserve(list.args.size());
    for (const auto& arg : list.args) a.args.push_back(eval(*arg, scope));
    if (list.dynArgs) {
        for (auto& v : eval(*list.dynArgs, scope).iterate()) a.args.push_back(std::move(v));
    }
    auto addKeyword = [&](std::string key, Value v) {
        if (a.keyword(key)) failType("got multiple values for keyword argument '" + key + "'");
        a.kwargs.emplace_back(std::move(key), std::move(v));
    };
    for (const auto& [k, v] : list.kwargs) addKeyword(k, eval(*v, scope));
    if (list.dynKwargs) {
        Value d = eval(*list.dynKwargs, scope);
        if (!d.isDict()) failType("argument after ** must be a mapping, not " + d.typeName());
        for (const auto& [k, v] : d.dictObj().entries) {
            if (!k.isString()) failType("keywords must be strings");
            addKeyword(k.str(), v);
        }
    }
    return a;
}

Value Interpreter::evalFilter(const FilterExpr& f, const ScopePtr& scope, const Value* blockInput) {
    Value input;
    if (f.input) {
        if (f.input->kind == Expr::Kind::Filter && blockInput)
            input = evalFilter(static_cast<const FilterExpr&>(*f.input), scope, blockInput);
        else
            input = eval(*f.input, scope);
    } else if (blockInput) {
        input = *blockInput;
    }
    const bool isTest = f.kind == Expr::Kind::Test;
    if (f.unknown) fail(JinjaError::Kind::Runtime, std::string("No ") + (isTest ? "test" : "filter") + " named '" + f.name + "' found.");
    CallArgs args = evalArgs(f.args, scope);
    if (isTest) return Value(applyTest(f.name, input, args));
    Value r = applyFilter(f.name, input, args);
    if (r.isString()) checkSize(r.str().size());
    return r;
}

Value Interpreter::applyFilter(const std::string& name, const Value& input, CallArgs& args) {
    return filters::apply(*this, name, input, args);
}

bool Interpreter::applyTest(const std::string& name, const Value& input, CallArgs& args) {
    return tests::apply(*this, name, input, args);
}

Value Interpreter::call(const Value& callee, CallArgs& args) {
    if (callee.isUndefined()) operators::failUndefined(callee);
    if (callee.isLoop()) {
        const auto& loop = static_cast<const LoopObject&>(*callee.object());
        if (!loop.recurse) failType("Tried to call non recursive loop. Maybe you forgot the 'recursive' modifier.");
        countStep();
        return loop.recurse(args);
    }
    if (!callee.isCallable()) failType("'" + callee.typeName() + "' object is not callable");
    countStep();
    return callee.callableObj().call(*this, args);
}

Value Interpreter::callMacro(const MacroStmt& macro, const ScopePtr& closure, CallArgs& args) {
    if (++callDepth_ > kMaxCallDepth) {
        --callDepth_;
        fail(JinjaError::Kind::Runtime, "macro calls nested deeper than " + std::to_string(kMaxCallDepth));
    }
    struct DepthGuard {
        int& d;
        ~DepthGuard() { --d; }
    } guard{callDepth_};
    auto scope = newScope(closure);
    const size_t nParams = macro.params.size();
    std::vector<bool> bound(nParams, false);
    for (size_t i = 0; i < args.args.size() && i < nParams; ++i) {
        scope->set(macro.params[i].sym, args.args[i]);
        bound[i] = true;
    }
    std::vector<Value> extra;
    if (args.args.size() > nParams) {
        if (!macro.usesVarargs)
            failType("macro '" + macro.name + "' takes not more than " + std::to_string(nParams) + " argument(s)");
        extra.assign(args.args.begin() + static_cast<std::ptrdiff_t>(nParams), args.args.end());
    }
    auto extraKw = std::make_shared<DictObject>();
    bool callerGiven = false;
    for (auto& [k, v] : args.kwargs) {
        size_t i = 0;
        while (i < nParams && macro.params[i].name != k) ++i;
        if (i < nParams) {
            if (bound[i]) failType("macro '" + macro.name + "' got multiple values for argument '" + k + "'");
            scope->set(macro.params[i].sym, v);
            bound[i] = true;
        } else if (k == "caller" && macro.usesCaller) {
            scope->set(callerSym_, v);
            callerGiven = true;
        } else if (macro.usesKwargs) {
            extraKw->set(Value(k), v);
        } else {
            failType("macro '" + macro.name + "' takes no keyword argument '" + k + "'");
        }
    }
    // Defaults are evaluated in the macro's scope, after the arguments before them are bound.
    for (size_t i = 0; i < nParams; ++i) {
        if (bound[i]) continue;
        const MacroParam& p = macro.params[i];
        scope->set(p.sym, p.defaultValue ? eval(*p.defaultValue, scope)
                                         : Value::undefined("parameter '" + p.name + "' was not provided"));
    }
    if (macro.usesVarargs) scope->set(varargsSym_, Value::tuple(std::move(extra)));
    if (macro.usesKwargs) scope->set(kwargsSym_, Value::dict(extraKw));
    if (macro.usesCaller && !callerGiven) scope->set(callerSym_, Value::undefined("No caller defined"));
    return Value(capture(macro.body, scope));
}

}  // namespace hearth::chat
