#include "chat/SequenceFilters.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "chat/Filters.h"
#include "chat/Interpreter.h"
#include "chat/JinjaError.h"
#include "chat/Operators.h"
#include "chat/PyStr.h"

namespace hearth::chat::filters {
namespace {

Value generator(std::function<std::vector<Value>()> produce) {
    auto it = std::make_shared<IteratorObject>();
    it->kind = IteratorObject::Kind::Generator;
    it->produce = std::move(produce);
    return Value::iterator(std::move(it));
}

// sort/min/max/unique keys: an attribute path (or several, comma separated, for sort) and
// optional case folding.
std::vector<Value> keysFor(const std::vector<Value>& items, const std::optional<Value>& attribute, bool caseSensitive,
                           bool multi) {
    std::vector<Value> keys;
    keys.reserve(items.size());
    std::vector<Value> parts;
    if (attribute && !attribute->isNone()) {
        if (multi && attribute->isString()) {
            for (const auto& p : pystr::split(attribute->str(), std::string(","), -1)) parts.emplace_back(p);
        } else {
            parts.push_back(*attribute);
        }
    }
    for (const auto& item : items) {
        if (parts.empty()) {
            keys.push_back(foldCase(item, caseSensitive));
        } else if (parts.size() == 1 && !multi) {
            keys.push_back(foldCase(attributePath(item, parts[0]), caseSensitive));
        } else {
            std::vector<Value> k;
            for (const auto& p : parts) k.push_back(foldCase(attributePath(item, p), caseSensitive));
            keys.push_back(k.size() == 1 ? k[0] : Value::list(std::move(k)));
        }
    }
    return keys;
}

Value doFirst(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "first", {});
    std::vector<Value> items = v.iterate();
    if (items.empty()) return Value::undefined("No first item, sequence was empty.");
    return items.front();
}

Value doLast(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "last", {});
    if (v.isIterator() && !v.iteratorObj().reusable()) failType("'" + v.typeName() + "' object is not reversible");
    std::vector<Value> items = v.iterate();
    if (items.empty()) return Value::undefined("No last item, sequence was empty.");
    return items.back();
}

Value doLength(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "length", {});
    return Value(v.length());
}

Value doList(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "list", {});
    return Value::list(v.iterate());
}

Value doJoin(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "join", {"d", "attribute"});
    const std::string sep = b[0] ? b[0]->toStr() : "";
    std::string out;
    bool first = true;
    for (const auto& item : v.iterate()) {
        if (!first) out += sep;
        first = false;
        out += (b[1] && !b[1]->isNone() ? attributePath(item, *b[1]) : item).toStr();
        Interpreter::checkSize(out.size());
    }
    return Value(std::move(out));
}

Value doMap(Interpreter& in, const Value& v, CallArgs& a) {
    if (!v.truthy()) return generator([] { return std::vector<Value>{}; });
    std::vector<Value> items = v.iterate();
    if (a.args.empty() && a.keyword("attribute")) {
        Value attribute = *a.keyword("attribute");
        std::optional<Value> dflt;
        for (const auto& [k, val] : a.kwargs) {
            if (k == "default") dflt = val;
            else if (k != "attribute") fail(JinjaError::Kind::Runtime, "Unexpected keyword argument '" + k + "'");
        }
        return generator([items = std::move(items), attribute, dflt]() {
            std::vector<Value> out;
            for (const auto& item : items) {
                Value r = attributePath(item, attribute);
                if (r.isUndefined() && dflt && !dflt->isNone()) r = *dflt;
                out.push_back(std::move(r));
            }
            return out;
        });
    }
    if (a.args.empty()) fail(JinjaError::Kind::Runtime, "map requires a filter argument");
    const std::string name = a.args[0].toStr();
    CallArgs rest;
    rest.args.assign(a.args.begin() + 1, a.args.end());
    rest.kwargs = a.kwargs;
    return generator([&in, items = std::move(items), name, rest]() mutable {
        std::vector<Value> out;
        for (const auto& item : items) {
            CallArgs copy = rest;
            out.push_back(in.applyFilter(name, item, copy));
        }
        return out;
    });
}

// select/reject/selectattr/rejectattr.
Value selectOrReject(Interpreter& in, const Value& v, CallArgs& a, bool select, bool byAttribute) {
    if (!v.truthy()) return generator([] { return std::vector<Value>{}; });
    std::vector<Value> items = v.iterate();
    size_t off = 0;
    Value attribute;
    if (byAttribute) {
        if (a.args.empty()) fail(JinjaError::Kind::Runtime, "Missing parameter for attribute name");
        attribute = a.args[0];
        off = 1;
    }
    std::optional<std::string> test;
    CallArgs rest;
    if (a.args.size() > off) {
        test = a.args[off].toStr();
        rest.args.assign(a.args.begin() + static_cast<std::ptrdiff_t>(off) + 1, a.args.end());
        rest.kwargs = a.kwargs;
    }
    return generator([&in, items = std::move(items), select, byAttribute, attribute, test, rest]() {
        std::vector<Value> out;
        for (const auto& item : items) {
            const Value probe = byAttribute ? attributePath(item, attribute) : item;
            bool ok;
            if (test) {
                CallArgs copy = rest;
                ok = in.applyTest(*test, probe, copy);
            } else {
                ok = probe.truthy();
            }
            if (ok == select) out.push_back(item);
        }
        return out;
    });
}

Value doSelect(Interpreter& in, const Value& v, CallArgs& a) { return selectOrReject(in, v, a, true, false); }
Value doReject(Interpreter& in, const Value& v, CallArgs& a) { return selectOrReject(in, v, a, false, false); }
Value doSelectattr(Interpreter& in, const Value& v, CallArgs& a) { return selectOrReject(in, v, a, true, true); }
Value doRejectattr(Interpreter& in, const Value& v, CallArgs& a) { return selectOrReject(in, v, a, false, true); }

Value doSort(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "sort", {"reverse", "case_sensitive", "attribute"});
    std::vector<Value> items = v.iterate();
    const auto keys = keysFor(items, b[2], b[1] && b[1]->truthy(), true);
    stableSortByKey(items, keys, b[0] && b[0]->truthy());
    return Value::list(std::move(items));
}

Value doDictsort(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "dictsort", {"case_sensitive", "by", "reverse"});
    if (v.isUndefined()) operators::failUndefined(v);
    if (!v.isDict()) fail(JinjaError::Kind::Attribute, "'" + v.typeName() + "' object has no attribute 'items'");
    const std::string by = b[1] ? b[1]->toStr() : "key";
    if (by != "key" && by != "value") fail(JinjaError::Kind::Runtime, "You can only sort by either \"key\" or \"value\"");
    const size_t pos = by == "key" ? 0 : 1;
    std::vector<Value> items, keys;
    for (const auto& [k, val] : v.dictObj().entries) {
        items.push_back(Value::tuple({k, val}));
        keys.push_back(foldCase(pos == 0 ? k : val, b[0] && b[0]->truthy()));
    }
    stableSortByKey(items, keys, b[2] && b[2]->truthy());
    return Value::list(std::move(items));
}

Value doItems(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "items", {});
    return generator([v]() {
        if (v.isUndefined()) return std::vector<Value>{};
        if (!v.isDict()) failType("Can only get item pairs from a mapping.");
        std::vector<Value> out;
        for (const auto& [k, val] : v.dictObj().entries) out.push_back(Value::tuple({k, val}));
        return out;
    });
}

Value doUnique(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "unique", {"case_sensitive", "attribute"});
    std::vector<Value> items = v.iterate();
    const bool caseSensitive = b[0] && b[0]->truthy();
    std::optional<Value> attribute = b[1];
    return generator([items = std::move(items), caseSensitive, attribute]() {
        const auto keys = keysFor(items, attribute, caseSensitive, false);
        std::vector<Value> out, seen;
        for (size_t i = 0; i < items.size(); ++i) {
            if (!keys[i].isHashable()) failType("unhashable type: '" + keys[i].typeName() + "'");
            if (std::any_of(seen.begin(), seen.end(), [&](const Value& s) { return s.equals(keys[i]); })) continue;
            seen.push_back(keys[i]);
            out.push_back(items[i]);
        }
        return out;
    });
}

Value minOrMax(const Value& v, CallArgs& a, bool wantMax) {
    auto b = bindArgs(a, wantMax ? "max" : "min", {"case_sensitive", "attribute"});
    std::vector<Value> items = v.iterate();
    if (items.empty()) return Value::undefined("No aggregated item, sequence was empty.");
    const auto keys = keysFor(items, b[1], b[0] && b[0]->truthy(), false);
    size_t best = 0;
    for (size_t i = 1; i < items.size(); ++i) {
        const int c = compareValues(keys[i], keys[best], wantMax ? ">" : "<");
        if (wantMax ? c > 0 : c < 0) best = i;
    }
    return items[best];
}

Value doMin(Interpreter&, const Value& v, CallArgs& a) { return minOrMax(v, a, false); }
Value doMax(Interpreter&, const Value& v, CallArgs& a) { return minOrMax(v, a, true); }

Value doSum(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "sum", {"attribute", "start"});
    Value total = b[1] ? *b[1] : Value(static_cast<int64_t>(0));
    for (const auto& item : v.iterate()) {
        const Value x = (b[0] && !b[0]->isNone()) ? attributePath(item, *b[0]) : item;
        if (x.isString()) failType("unsupported operand type(s) for +: '" + total.typeName() + "' and 'str'");
        total = operators::binary(BinaryExpr::Op::Add, total, x);
    }
    return total;
}

Value doReverse(Interpreter&, const Value& v, CallArgs& a) {
    bindArgs(a, "reverse", {});
    if (v.isString()) {
        CallArgs none;
        std::vector<char32_t> cps;
        std::string out;
        const auto chars = v.iterate();
        for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += it->str();
        return v.isMarkup() ? Value::markup(std::move(out)) : Value(std::move(out));
    }
    std::vector<Value> items = v.iterate();
    std::reverse(items.begin(), items.end());
    if (v.isIterator() && !v.iteratorObj().reusable()) return Value::list(std::move(items));
    auto it = std::make_shared<IteratorObject>();
    it->kind = IteratorObject::Kind::ListReverse;
    it->items = std::move(items);
    return Value::iterator(std::move(it));
}

Value doBatch(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "batch", {"linecount", "fill_with"}, 1);
    const int64_t n = b[0]->asInt();
    if (n <= 0) fail(JinjaError::Kind::Value, "batch size must be positive");
    std::vector<Value> items = v.iterate();
    std::optional<Value> fill = (b[1] && !b[1]->isNone()) ? b[1] : std::nullopt;
    return generator([items = std::move(items), n, fill]() {
        std::vector<Value> out, cur;
        for (const auto& item : items) {
            cur.push_back(item);
            if (static_cast<int64_t>(cur.size()) == n) out.push_back(Value::list(std::exchange(cur, {})));
        }
        if (!cur.empty()) {
            if (fill)
                while (static_cast<int64_t>(cur.size()) < n) cur.push_back(*fill);
            out.push_back(Value::list(std::move(cur)));
        }
        return out;
    });
}

Value doSlice(Interpreter&, const Value& v, CallArgs& a) {
    auto b = bindArgs(a, "slice", {"slices", "fill_with"}, 1);
    const int64_t slices = b[0]->asInt();
    if (slices <= 0) fail(JinjaError::Kind::Value, "slice count must be positive");
    std::vector<Value> seq = v.iterate();
    std::optional<Value> fill = (b[1] && !b[1]->isNone()) ? b[1] : std::nullopt;
    return generator([seq = std::move(seq), slices, fill]() {
        const auto length = static_cast<int64_t>(seq.size());
        const int64_t perSlice = length / slices, extra = length % slices;
        int64_t offset = 0;
        std::vector<Value> out;
        for (int64_t i = 0; i < slices; ++i) {
            const int64_t start = offset + i * perSlice;
            if (i < extra) ++offset;
            const int64_t end = offset + (i + 1) * perSlice;
            std::vector<Value> part(seq.begin() + start, seq.begin() + end);
            if (fill && i >= extra) part.push_back(*fill);
            out.push_back(Value::list(std::move(part)));
        }
        return out;
    });
}

const std::unordered_map<std::string, FilterFn>& table() {
    static const std::unordered_map<std::string, FilterFn> t = {
        {"first", doFirst}, {"last", doLast}, {"length", doLength}, {"count", doLength}, {"list", doList},
        {"join", doJoin}, {"map", doMap}, {"select", doSelect}, {"reject", doReject}, {"selectattr", doSelectattr},
        {"rejectattr", doRejectattr}, {"sort", doSort}, {"dictsort", doDictsort}, {"items", doItems},
        {"unique", doUnique}, {"min", doMin}, {"max", doMax}, {"sum", doSum}, {"reverse", doReverse},
        {"batch", doBatch}, {"slice", doSlice},
    };
    return t;
}

}  // namespace

FilterFn findSequenceFilter(const std::string& name) {
    auto it = table().find(name);
    return it == table().end() ? nullptr : it->second;
}

void stableSortByKey(std::vector<Value>& items, const std::vector<Value>& keys, bool reverse) {
    std::vector<size_t> order(items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return reverse ? compareValues(keys[y], keys[x], "<") < 0 : compareValues(keys[x], keys[y], "<") < 0;
    });
    std::vector<Value> sorted;
    sorted.reserve(items.size());
    for (size_t i : order) sorted.push_back(std::move(items[i]));
    items = std::move(sorted);
}

}  // namespace hearth::chat::filters
