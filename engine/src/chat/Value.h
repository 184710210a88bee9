#pragma once
// A template value with the semantics of the Python object jinja2 would hold in the same place:
// undefined, None, bool, int, float, str (optionally markupsafe.Markup), list, tuple, dict,
// jinja2's Namespace, iterators/views (generators from filters, dict views, ranges), callables
// (macros, builtins, bound methods) and the for-loop's `loop` object.
//
// Invariants: lists, dicts and namespaces are shared by reference, as in Python (a copy of a
// Value aliases the same ListObject/DictObject); strings are immutable and shared; ints are
// 64-bit and every arithmetic operation that would overflow raises instead of wrapping; a Value
// of type X always holds the payload of type X (obj_ is null only for scalars and the plain
// undefined); dict keys are hashable values (str, numbers, bool, None, tuples of those) and
// are unique under Python equality (1, 1.0 and True are the same key).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth::chat {

class Value;
class Interpreter;
struct CallArgs;
struct SourcePos;

enum class ValueType : uint8_t {
    Undefined, None, Bool, Int, Float, String, List, Tuple, Dict, Namespace, Iterator, Callable, Loop,
};

struct HeapObject {
    virtual ~HeapObject() = default;
};

struct StringObject final : HeapObject {
    explicit StringObject(std::string t) : text(std::move(t)) {}
    std::string text;
};

// The list behind List and Tuple values.
// (Destructors of the objects holding Values are defined in Value.cpp, where Value is complete:
// clang instantiates an inline virtual destructor at the class definition.)
struct ListObject final : HeapObject {
    ~ListObject() override;
    std::vector<Value> items;
};

// An insertion-ordered dict (Python 3.7+ order), also the attribute store of a Namespace.
struct DictObject final : HeapObject {
    ~DictObject() override;
    std::vector<std::pair<Value, Value>> entries;

    const Value* find(const Value& key) const;
    const Value* findStr(std::string_view key) const;
    // Inserts or replaces, keeping the first insertion's position (as Python does).
    void set(Value key, Value value);
};

// Why a value is undefined: jinja2 reports this when the value is used.
struct UndefinedObject final : HeapObject {
    std::string message;   // "'x' is undefined", "'dict object' has no attribute 'y'", ...
    bool security = false; // an attribute the sandbox refuses (using it raises SecurityError)
};

// Iterables that are not lists: generators (single use), dict views and ranges (reusable).
struct IteratorObject final : HeapObject {
    enum class Kind { Generator, DictItems, DictKeys, DictValues, Range, ListReverse, DictItemIterator };
    ~IteratorObject() override;
    Kind kind = Kind::Generator;
    std::vector<Value> items;                        // materialized items (or the range's values)
    std::function<std::vector<Value>()> produce;     // generators: computes items on first use
    bool consumed = false;                           // single-use iterators already iterated
    int64_t rangeStart = 0, rangeStop = 0, rangeStep = 1;

    bool reusable() const;
    bool hasLength() const;
    const char* typeName() const;
    // The items of one iteration; single-use iterators yield nothing the second time.
    std::vector<Value> iterate();
};

struct CallableObject : HeapObject {
    virtual std::string name() const = 0;
    virtual Value call(Interpreter& in, CallArgs& args) = 0;
    virtual bool isMacro() const { return false; }
};

class Value {
public:
    Value() = default;  // plain undefined
    Value(bool b) : type_(ValueType::Bool), b_(b) {}
    Value(int v) : type_(ValueType::Int), i_(v) {}
    Value(int64_t v) : type_(ValueType::Int), i_(v) {}
    Value(double v) : type_(ValueType::Float), f_(v) {}
    Value(std::string s) : type_(ValueType::String), obj_(std::make_shared<StringObject>(std::move(s))) {}
    Value(const char* s) : Value(std::string(s)) {}

    static Value none();
    static Value undefined(std::string message, bool security = false);
    static Value markup(std::string s);
    static Value list(std::vector<Value> items = {});
    static Value tuple(std::vector<Value> items);
    static Value dict(std::shared_ptr<DictObject> d = nullptr);
    static Value ns(std::shared_ptr<DictObject> attrs);
    static Value iterator(std::shared_ptr<IteratorObject> it);
    static Value callable(std::shared_ptr<CallableObject> c);
    static Value loop(std::shared_ptr<HeapObject> l);

    ValueType type() const { return type_; }
    bool isUndefined() const { return type_ == ValueType::Undefined; }
    bool isNone() const { return type_ == ValueType::None; }
    bool isBool() const { return type_ == ValueType::Bool; }
    bool isInt() const { return type_ == ValueType::Int; }
    bool isFloat() const { return type_ == ValueType::Float; }
    bool isNumber() const { return isInt() || isFloat() || isBool(); }  // Python's numbers.Number
    bool isString() const { return type_ == ValueType::String; }
    bool isMarkup() const { return type_ == ValueType::String && markup_; }
    bool isList() const { return type_ == ValueType::List; }
    bool isTuple() const { return type_ == ValueType::Tuple; }
    bool isListOrTuple() const { return isList() || isTuple(); }
    bool isDict() const { return type_ == ValueType::Dict; }
    bool isNamespace() const { return type_ == ValueType::Namespace; }
    bool isIterator() const { return type_ == ValueType::Iterator; }
    bool isCallable() const { return type_ == ValueType::Callable; }
    bool isLoop() const { return type_ == ValueType::Loop; }

    bool asBool() const { return b_; }
    int64_t asInt() const { return isBool() ? (b_ ? 1 : 0) : i_; }  // Int or Bool
    double asFloat() const;                                        // any number
    const std::string& str() const { return static_cast<const StringObject&>(*obj_).text; }
    ListObject& listObj() const { return static_cast<ListObject&>(*obj_); }
    const std::vector<Value>& items() const { return listObj().items; }
    DictObject& dictObj() const { return static_cast<DictObject&>(*obj_); }
    IteratorObject& iteratorObj() const { return static_cast<IteratorObject&>(*obj_); }
    CallableObject& callableObj() const { return static_cast<CallableObject&>(*obj_); }
    const std::shared_ptr<HeapObject>& object() const { return obj_; }
    // The message jinja2 gives when this undefined value is used.
    std::string undefinedMessage() const;
    bool undefinedIsSecurity() const;

    // Python truth value.
    bool truthy() const;
    // Python str(): what {{ value }} prints. Throws for objects Python would print with a memory
    // address (functions, generators), which no template output could match.
    std::string toStr() const;
    // Python repr(), used inside containers.
    std::string repr() const;
    // Python ==, and the total "is it the same key" relation of dicts.
    bool equals(const Value& other) const;
    bool isHashable() const;
    // Python's type name for messages: "str", "int", "list", "dict", "NoneType", ...
    std::string typeName() const;

    // The items an iteration yields (for loops, filters); throws TypeError for non-iterables.
    std::vector<Value> iterate() const;
    // Python len(); throws TypeError where Python has none.
    int64_t length() const;

private:
    ValueType type_ = ValueType::Undefined;
    bool markup_ = false;
    union {
        bool b_;
        int64_t i_ = 0;
        double f_;
    };
    std::shared_ptr<HeapObject> obj_;
};

// Python's rich comparison for <, <=, >, >=: numbers, strings, lists and tuples; TypeError else.
int compareValues(const Value& a, const Value& b, const char* op);
// markupsafe.escape() of a value's str().
std::string escapeMarkup(std::string_view s);

}  // namespace hearth::chat
