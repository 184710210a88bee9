#include "constraint/JsonMachine.h"

namespace hearth::constraint {
namespace {

constexpr int32_t kBoolLiterals = -1;
constexpr int32_t kNullLiteral = -2;

// Object phases
constexpr uint8_t kObjOpen = 0, kObjAfterKey = 1, kObjInValue = 2, kObjAfterValue = 3, kObjAfterComma = 4,
                  kObjInKey = 5;
// Array phases
constexpr uint8_t kArrOpen = 0, kArrInValue = 1, kArrAfterValue = 2;
// Number phases (JSON number grammar)
constexpr uint8_t kNumStart = 0, kNumSign = 1, kNumZero = 2, kNumInt = 3, kNumDot = 4, kNumFrac = 5,
                  kNumExp = 6, kNumExpSign = 7, kNumExpDigits = 8;

bool isWs(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isDigit(uint8_t c) { return c >= '0' && c <= '9'; }
int hexValue(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool testBit(const uint64_t* bits, int i) { return (bits[i >> 6] >> (i & 63)) & 1u; }
void setBit(uint64_t* bits, int i) { bits[i >> 6] |= uint64_t(1) << (i & 63); }
void clearBit(uint64_t* bits, int i) { bits[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
void setFirst(uint64_t* bits, int n) {
    for (int i = 0; i < n; ++i) setBit(bits, i);
}

const std::vector<std::string>& boolLiterals() {
    static const std::vector<std::string> v = {"true", "false"};
    return v;
}
const std::vector<std::string>& nullLiteral() {
    static const std::vector<std::string> v = {"null"};
    return v;
}

}  // namespace

JsonMachine::JsonMachine(const CompiledSchema& schema) : schema_(&schema) {
    stack_.reserve(kMaxDepth);  // never reallocates: frame references stay valid across push()
    stack_.push_back(Frame{});
    Frame value;
    value.kind = Kind::Value;
    value.node = schema.root;
    stack_.push_back(value);
}

void JsonMachine::copyFrom(const JsonMachine& other) {
    stack_.assign(other.stack_.begin(), other.stack_.end());
    wsRun_ = other.wsRun_;
    wsNewline_ = other.wsNewline_;
}

bool JsonMachine::feed(uint8_t c) {
    if (!isWs(c)) wsRun_ = 0;
    // A byte can end a number or literal and then be read by the container (and so on): a few
    // re-feeds at most.
    for (int i = 0; i < 8; ++i) {
        const Outcome o = feedFrame(stack_.back(), c);
        if (o == Outcome::Reject) return false;
        if (o == Outcome::Consumed) return true;
    }
    return false;
}

bool JsonMachine::complete() const {
    if (stack_.size() == 1) return stack_[0].phase == 1;
    if (stack_.size() == 2) {
        const Frame& top = stack_[1];
        if (top.kind == Kind::Number) return numberAccepting(top);
        if (top.kind == Kind::Literal) return literalExact(top);
    }
    return false;
}

bool JsonMachine::finished() const { return stack_.size() == 1 && stack_[0].phase == 1; }

bool JsonMachine::inPlainText(int& remainingChars) const {
    const Frame& top = stack_.back();
    if (!top.text.plain()) return false;
    if (top.kind == Kind::String) {
        const int maxLength = nodeOf(top).maxLength;
        remainingChars = maxLength == kUnbounded ? kUnbounded : maxLength - top.count;
        return true;
    }
    if (top.kind == Kind::Key && nodeOf(top).additional >= 0) {
        remainingChars = kUnbounded;
        return true;
    }
    return false;
}

JsonMachine::Outcome JsonMachine::feedFrame(Frame& f, uint8_t c) {
    switch (f.kind) {
    case Kind::Root: return feedRoot(f, c);
    case Kind::Value: return feedValue(f, c);
    case Kind::Object: return feedObject(f, c);
    case Kind::Array: return feedArray(f, c);
    case Kind::String: return feedString(f, c);
    case Kind::Key: return feedKey(f, c);
    case Kind::Number: return feedNumber(f, c);
    case Kind::Literal: return feedLiteral(f, c);
    }
    return Outcome::Reject;
}

bool JsonMachine::push(const Frame& f) {
    if (stack_.size() >= static_cast<size_t>(kMaxDepth)) return false;
    stack_.push_back(f);
    return true;
}

void JsonMachine::valueDone() {
    stack_.pop_back();
    Frame& parent = stack_.back();
    switch (parent.kind) {
    case Kind::Root: parent.phase = 1; break;
    case Kind::Object: parent.phase = kObjAfterValue; break;
    case Kind::Array:
        ++parent.count;
        parent.phase = kArrAfterValue;
        break;
    default: break;
    }
}

bool JsonMachine::takeWhitespace(uint8_t c) {
    // A run is " ", "\t", or "\n" followed by up to kMaxIndent spaces/tabs.
    if (wsRun_ == 0) {
        if (c == '\r') return false;
        wsNewline_ = c == '\n';
    } else if (!wsNewline_ || c == '\n' || c == '\r' || wsRun_ > kMaxIndent) {
        return false;
    }
    ++wsRun_;
    return true;
}

JsonMachine::Outcome JsonMachine::feedRoot(Frame&, uint8_t) {
    return Outcome::Reject;  // phase 1: the document is closed; phase 0 always has a Value on top
}

JsonMachine::Outcome JsonMachine::feedValue(Frame& f, uint8_t c) {
    if (isWs(c)) return takeWhitespace(c) ? Outcome::Consumed : Outcome::Reject;
    const SchemaNode& n = nodeOf(f);
    const int32_t node = f.node;
    Frame next;
    next.node = node;
    if (!n.literals.empty()) {
        next.kind = Kind::Literal;
        setFirst(next.bits, static_cast<int>(n.literals.size()));
        f = next;
        return Outcome::Refeed;
    }
    if (c == '{' && (n.types & kObject)) {
        next.kind = Kind::Object;
        next.phase = kObjOpen;
        f = next;
        return Outcome::Consumed;
    }
    if (c == '[' && (n.types & kArray)) {
        next.kind = Kind::Array;
        next.phase = kArrOpen;
        f = next;
        return Outcome::Consumed;
    }
    if (c == '"' && (n.types & kString)) {
        next.kind = Kind::String;
        f = next;
        return Outcome::Consumed;
    }
    if ((c == 't' || c == 'f') && (n.types & kBoolean)) {
        next.kind = Kind::Literal;
        next.node = kBoolLiterals;
        setFirst(next.bits, 2);
        f = next;
        return Outcome::Refeed;
    }
    if (c == 'n' && (n.types & kNull)) {
        next.kind = Kind::Literal;
        next.node = kNullLiteral;
        setFirst(next.bits, 1);
        f = next;
        return Outcome::Refeed;
    }
    if ((c == '-' || isDigit(c)) && (n.types & (kInteger | kNumber))) {
        next.kind = Kind::Number;
        next.phase = kNumStart;
        f = next;
        return Outcome::Refeed;
    }
    return Outcome::Reject;
}

bool JsonMachine::canAddKey(const Frame& object) const {
    const SchemaNode& n = nodeOf(object);
    if (n.additional >= 0) return true;
    for (size_t i = 0; i < n.properties.size(); ++i)
        if (!testBit(object.bits, static_cast<int>(i))) return true;
    return false;
}

bool JsonMachine::requiredMet(const Frame& object) const {
    const SchemaNode& n = nodeOf(object);
    for (size_t i = 0; i < n.properties.size(); ++i)
        if (n.properties[i].required && !testBit(object.bits, static_cast<int>(i))) return false;
    return true;
}

JsonMachine::Outcome JsonMachine::feedObject(Frame& f, uint8_t c) {
    const SchemaNode& n = nodeOf(f);
    if (isWs(c) && f.phase != kObjInKey && f.phase != kObjInValue)
        return takeWhitespace(c) ? Outcome::Consumed : Outcome::Reject;
    switch (f.phase) {
    case kObjOpen:
    case kObjAfterComma:
        if (c == '"' && canAddKey(f)) {
            Frame key;
            key.kind = Kind::Key;
            key.node = f.node;
            if (n.additional >= 0) {
                setFirst(key.bits, static_cast<int>(n.properties.size()));
            } else {
                for (size_t i = 0; i < n.properties.size(); ++i)
                    if (!testBit(f.bits, static_cast<int>(i))) setBit(key.bits, static_cast<int>(i));
            }
            if (!push(key)) return Outcome::Reject;
            f.phase = kObjInKey;
            return Outcome::Consumed;
        }
        if (c == '}' && f.phase == kObjOpen && requiredMet(f)) {
            valueDone();
            return Outcome::Consumed;
        }
        return Outcome::Reject;
    case kObjAfterKey: {
        if (c != ':') return Outcome::Reject;
        Frame value;
        value.kind = Kind::Value;
        value.node = f.property >= 0 ? n.properties[static_cast<size_t>(f.property)].node : n.additional;
        if (value.node < 0 || !push(value)) return Outcome::Reject;
        f.phase = kObjInValue;
        return Outcome::Consumed;
    }
    case kObjAfterValue:
        if (c == ',' && canAddKey(f)) {
            f.phase = kObjAfterComma;
            return Outcome::Consumed;
        }
        if (c == '}' && requiredMet(f)) {
            valueDone();
            return Outcome::Consumed;
        }
        return Outcome::Reject;
    default: return Outcome::Reject;
    }
}

JsonMachine::Outcome JsonMachine::feedArray(Frame& f, uint8_t c) {
    const SchemaNode& n = nodeOf(f);
    if (isWs(c)) return takeWhitespace(c) ? Outcome::Consumed : Outcome::Reject;
    Frame value;
    value.kind = Kind::Value;
    value.node = n.items;
    switch (f.phase) {
    case kArrOpen:
        if (c == ']') {
            if (n.minItems > 0) return Outcome::Reject;
            valueDone();
            return Outcome::Consumed;
        }
        if (n.maxItems == 0 || !push(value)) return Outcome::Reject;
        f.phase = kArrInValue;
        return Outcome::Refeed;
    case kArrAfterValue:
        if (c == ',' && f.count < n.maxItems) {
            if (!push(value)) return Outcome::Reject;
            f.phase = kArrInValue;
            return Outcome::Consumed;
        }
        if (c == ']' && f.count >= n.minItems) {
            valueDone();
            return Outcome::Consumed;
        }
        return Outcome::Reject;
    default: return Outcome::Reject;
    }
}

JsonMachine::StringByte JsonMachine::stringByte(TextState& t, uint8_t c) {
    if (t.utf8Need > 0) {
        if (c < t.utf8Lo || c > t.utf8Hi) return StringByte::Reject;
        t.utf8Lo = 0x80;
        t.utf8Hi = 0xBF;
        return --t.utf8Need == 0 ? StringByte::Char : StringByte::Partial;
    }
    if (t.escape == 1) {
        if (t.surrogate == 2) {  // the low half of a surrogate pair must be another \u escape
            if (c != 'u') return StringByte::Reject;
            t.escape = 2;
            t.hex = 0;
            return StringByte::Partial;
        }
        switch (c) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            t.escape = 0;
            return StringByte::Char;
        case 'u':
            t.escape = 2;
            t.hex = 0;
            return StringByte::Partial;
        default: return StringByte::Reject;
        }
    }
    if (t.escape >= 2) {
        const int v = hexValue(c);
        if (v < 0) return StringByte::Reject;
        const int digit = t.escape - 2;
        t.hex = static_cast<uint16_t>(t.hex * 16 + v);
        if (t.surrogate == 2) {
            if (digit == 0 && v != 0xD) return StringByte::Reject;
            if (digit == 1 && v < 0xC) return StringByte::Reject;
        } else if (digit == 1 && t.hex >= 0xDC && t.hex <= 0xDF) {
            return StringByte::Reject;  // a low surrogate without its high half
        }
        if (digit < 3) {
            ++t.escape;
            return StringByte::Partial;
        }
        t.escape = 0;
        if (t.surrogate == 2) {
            t.surrogate = 0;
            return StringByte::Char;
        }
        if (t.hex >= 0xD800 && t.hex <= 0xDBFF) {
            t.surrogate = 1;
            return StringByte::Partial;
        }
        return StringByte::Char;
    }
    if (t.surrogate == 1) {
        if (c != '\\') return StringByte::Reject;
        t.escape = 1;
        t.surrogate = 2;
        return StringByte::Partial;
    }
    if (c == '"') return StringByte::Close;
    if (c == '\\') {
        t.escape = 1;
        return StringByte::Partial;
    }
    if (c < 0x20) return StringByte::Reject;
    if (c < 0x80) return StringByte::Char;
    // UTF-8 lead bytes with the ranges that keep the sequence well-formed (no overlongs, no
    // surrogates, nothing above U+10FFFF).
    if (c >= 0xC2 && c <= 0xDF) {
        t.utf8Need = 1;
    } else if (c == 0xE0) {
        t.utf8Need = 2;
        t.utf8Lo = 0xA0;
    } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
        t.utf8Need = 2;
    } else if (c == 0xED) {
        t.utf8Need = 2;
        t.utf8Hi = 0x9F;
    } else if (c == 0xF0) {
        t.utf8Need = 3;
        t.utf8Lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) {
        t.utf8Need = 3;
    } else if (c == 0xF4) {
        t.utf8Need = 3;
        t.utf8Hi = 0x8F;
    } else {
        return StringByte::Reject;
    }
    return StringByte::Partial;
}

JsonMachine::Outcome JsonMachine::feedString(Frame& f, uint8_t c) {
    const SchemaNode& n = nodeOf(f);
    if (f.text.plain() && c != '"' && f.count >= n.maxLength) return Outcome::Reject;
    switch (stringByte(f.text, c)) {
    case StringByte::Reject: return Outcome::Reject;
    case StringByte::Partial: return Outcome::Consumed;
    case StringByte::Char: ++f.count; return Outcome::Consumed;
    case StringByte::Close:
        if (f.count < n.minLength) return Outcome::Reject;
        valueDone();
        return Outcome::Consumed;
    }
    return Outcome::Reject;
}

JsonMachine::Outcome JsonMachine::feedKey(Frame& f, uint8_t c) {
    const SchemaNode& n = nodeOf(f);
    const bool freeKeys = n.additional >= 0;
    const int nProps = static_cast<int>(n.properties.size());
    const bool closing = freeKeys ? (f.text.plain() && c == '"') : (c == '"');
    if (closing) {
        int match = -1;
        for (int p = 0; p < nProps; ++p)
            if (testBit(f.bits, p) && n.properties[static_cast<size_t>(p)].key.size() == static_cast<size_t>(f.count))
                match = p;
        Frame& object = stack_[stack_.size() - 2];
        if (match < 0 && !freeKeys) {
            // Not a whole name yet: the quote may be escaped content of a longer name.
        } else {
            if (match >= 0 && testBit(object.bits, match)) return Outcome::Reject;  // duplicate key
            object.property = match;
            if (match >= 0) setBit(object.bits, match);
            stack_.pop_back();
            object.phase = kObjAfterKey;
            return Outcome::Consumed;
        }
    }
    if (freeKeys && stringByte(f.text, c) == StringByte::Reject) return Outcome::Reject;
    bool anyAlive = false;
    for (int p = 0; p < nProps; ++p) {
        if (!testBit(f.bits, p)) continue;
        const std::string& key = n.properties[static_cast<size_t>(p)].key;
        if (key.size() > static_cast<size_t>(f.count) && static_cast<uint8_t>(key[static_cast<size_t>(f.count)]) == c)
            anyAlive = true;
        else
            clearBit(f.bits, p);
    }
    if (!anyAlive && !freeKeys) return Outcome::Reject;
    ++f.count;
    return Outcome::Consumed;
}

bool JsonMachine::numberAccepting(const Frame& f) const {
    return f.phase == kNumZero || f.phase == kNumInt || f.phase == kNumFrac || f.phase == kNumExpDigits;
}

JsonMachine::Outcome JsonMachine::feedNumber(Frame& f, uint8_t c) {
    const bool integerOnly = !(nodeOf(f).types & kNumber);
    uint8_t next = 255;
    switch (f.phase) {
    case kNumStart:
        if (c == '-') next = kNumSign;
        else if (c == '0') next = kNumZero;
        else if (isDigit(c)) next = kNumInt;
        break;
    case kNumSign:
        if (c == '0') next = kNumZero;
        else if (isDigit(c)) next = kNumInt;
        break;
    case kNumZero:
        if (isDigit(c)) return Outcome::Reject;  // no leading zeros
        if (c == '.' && !integerOnly) next = kNumDot;
        else if ((c == 'e' || c == 'E') && !integerOnly) next = kNumExp;
        break;
    case kNumInt:
        if (isDigit(c)) next = kNumInt;
        else if (c == '.' && !integerOnly) next = kNumDot;
        else if ((c == 'e' || c == 'E') && !integerOnly) next = kNumExp;
        break;
    case kNumDot:
        if (isDigit(c)) next = kNumFrac;
        break;
    case kNumFrac:
        if (isDigit(c)) next = kNumFrac;
        else if (c == 'e' || c == 'E') next = kNumExp;
        break;
    case kNumExp:
        if (c == '+' || c == '-') next = kNumExpSign;
        else if (isDigit(c)) next = kNumExpDigits;
        break;
    case kNumExpSign:
    case kNumExpDigits:
        if (isDigit(c) && f.exponentDigits < kMaxExponentDigits) next = kNumExpDigits;
        break;
    default: break;
    }
    if (next == 255) {
        if (!numberAccepting(f)) return Outcome::Reject;
        valueDone();
        return Outcome::Refeed;  // the byte belongs to the container
    }
    const int cap = integerOnly ? kMaxIntegerLength : kMaxNumberLength;
    const int length = f.count + 1;
    f.phase = next;
    const bool accepting = numberAccepting(f);
    // A non-accepting state must leave room for the digit that completes it.
    if (accepting ? length > cap : length >= cap) return Outcome::Reject;
    f.count = length;
    if (next == kNumExpDigits) ++f.exponentDigits;
    return Outcome::Consumed;
}

const std::vector<std::string>& JsonMachine::literalsOf(const Frame& f) const {
    if (f.node == kBoolLiterals) return boolLiterals();
    if (f.node == kNullLiteral) return nullLiteral();
    return nodeOf(f).literals;
}

bool JsonMachine::literalExact(const Frame& f) const {
    const auto& lits = literalsOf(f);
    for (size_t p = 0; p < lits.size(); ++p)
        if (testBit(f.bits, static_cast<int>(p)) && lits[p].size() == static_cast<size_t>(f.count)) return true;
    return false;
}

JsonMachine::Outcome JsonMachine::feedLiteral(Frame& f, uint8_t c) {
    const auto& lits = literalsOf(f);
    const auto pos = static_cast<size_t>(f.count);
    uint64_t alive[4] = {0, 0, 0, 0};
    bool any = false, longer = false, exactAfter = false;
    for (size_t p = 0; p < lits.size(); ++p) {
        if (!testBit(f.bits, static_cast<int>(p))) continue;
        if (lits[p].size() > pos && static_cast<uint8_t>(lits[p][pos]) == c) {
            setBit(alive, static_cast<int>(p));
            any = true;
            if (lits[p].size() > pos + 1) longer = true;
            else exactAfter = true;
        }
    }
    if (!any) {
        if (!literalExact(f)) return Outcome::Reject;
        valueDone();
        return Outcome::Refeed;
    }
    for (int i = 0; i < 4; ++i) f.bits[i] = alive[i];
    ++f.count;
    if (exactAfter && !longer) valueDone();  // nothing can extend it: close now
    return Outcome::Consumed;
}

}  // namespace hearth::constraint
