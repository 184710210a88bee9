#pragma once
// Renders a parsed Program: executes statements, evaluates expressions with Python semantics, and
// calls the builtins (filters, tests, methods, globals) the way jinja2's sandboxed environment does.
//
// Invariants: one Interpreter renders once, on one thread (the Program it reads is shared and
// immutable); output goes to the buffer on top of the capture stack; a render that exceeds the
// work or size limits below stops with an error instead of hanging or exhausting memory.

#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "chat/Ast.h"
#include "chat/CallArgs.h"
#include "chat/Scope.h"
#include "chat/Value.h"

namespace hearth::chat {

struct MacroStmt;

class Interpreter {
public:
    static constexpr size_t kMaxOutputBytes = 16u << 20;  // per render and per string (~4M tokens)
    static constexpr int kMaxCallDepth = 256;             // nested macro calls
    static constexpr uint64_t kMaxSteps = 2'000'000;      // loop iterations + calls (real templates: thousands)

    Interpreter(const Program& program, std::tm now);
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    // The scope holding the template's context variables, to be filled before render().
    const ScopePtr& root() const { return root_; }
    int symbolOf(std::string_view name) const;  // -1 when the template never mentions it
    std::string render();

    // Used by builtins.
    Value call(const Value& callee, CallArgs& args);
    Value callMacro(const MacroStmt& macro, const ScopePtr& closure, CallArgs& args);
    Value applyFilter(const std::string& name, const Value& input, CallArgs& args);
    bool applyTest(const std::string& name, const Value& input, CallArgs& args);
    const std::tm& now() const { return now_; }
    void countStep();
    // Namespaces can be made to hold themselves ({% set ns.me = ns %}); the destructor empties them.
    void trackNamespace(const std::shared_ptr<DictObject>& attrs);
    static void checkSize(size_t bytes);

private:
    enum class Flow { Normal, Break, Continue };

    ScopePtr newScope(const ScopePtr& parent);
    Flow exec(const Body& body, const ScopePtr& scope);
    Flow execStmt(const Stmt& stmt, const ScopePtr& scope);
    void execFor(const ForStmt& s, const ScopePtr& scope);
    void runLoop(const ForStmt& s, const ScopePtr& scope, std::vector<Value> items, int depth0);
    std::string capture(const Body& body, const ScopePtr& scope);
    void assign(const Target& target, Value value, Scope& scope);

    Value eval(const Expr& e, const ScopePtr& scope);
    Value evalImpl(const Expr& e, const ScopePtr& scope);
    Value lookup(const NameExpr& n, const ScopePtr& scope);
    // Filters and tests; blockInput stands for a null innermost input (filter blocks).
    Value evalFilter(const FilterExpr& f, const ScopePtr& scope, const Value* blockInput);
    CallArgs evalArgs(const ArgList& list, const ScopePtr& scope);
    Value evalCompare(const CompareExpr& c, const ScopePtr& scope);
    Value evalSlice(const Value& obj, const SliceExpr& s, const ScopePtr& scope);

    const Program& program_;
    std::tm now_;
    std::vector<std::weak_ptr<Scope>> scopes_;  // every scope of this render (see ~Interpreter)
    std::vector<std::weak_ptr<DictObject>> namespaces_;
    ScopePtr root_;
    std::vector<Value> globals_;  // sym -> builtin global (undefined where none)
    std::vector<std::string*> out_;
    int loopSym_, callerSym_, varargsSym_, kwargsSym_;  // -1 when the template never names them
    int callDepth_ = 0;
    uint64_t steps_ = 0;
};

}  // namespace hearth::chat
