#pragma once
// A byte-at-a-time recogniser for JSON documents that match a CompiledSchema: feed() accepts a byte
// exactly when the bytes so far, followed by it, are still a prefix of some valid document.
//
// It is a pushdown automaton: a stack of frames (the document root, open objects and arrays, and at
// most one scalar in progress on top). Frames are trivially copyable and the stack is a vector, so
// copying a machine (copyFrom) costs a few hundred bytes; the token-mask walk copies one per trie
// node it visits.
//
// Invariants: the stack is never empty and stack[0] is the root frame; every state reachable by
// accepted bytes can still be completed to a valid document (no dead ends), which is why limits are
// checked before a byte is taken: a string at maxLength takes only its closing quote, an array at
// maxItems takes no ',' and an object with no key left takes no ','. Numbers are capped at
// kMaxNumberLength characters and exponents at kMaxExponentDigits digits (so every number parses
// as a finite double everywhere), whitespace between tokens to one space or one newline followed by
// at most kMaxIndent spaces/tabs, and nesting to kMaxDepth frames, so a model cannot loop forever
// inside one token class (whitespace loops are the classic failure of JSON-constrained sampling).
// After a rejected feed() the machine is unusable; callers feed a copy (see JsonConstraint).

#include <cstdint>
#include <vector>

#include "constraint/CompiledSchema.h"

namespace hearth::constraint {

inline constexpr int kMaxDepth = 48;
inline constexpr int kMaxNumberLength = 32;
inline constexpr int kMaxIntegerLength = 20;
inline constexpr int kMaxExponentDigits = 2;
inline constexpr int kMaxIndent = 20;

class JsonMachine {
public:
    explicit JsonMachine(const CompiledSchema& schema);

    bool feed(uint8_t byte);
    void copyFrom(const JsonMachine& other);  // both for the same schema

    // The bytes so far are a whole valid document (a trailing number or literal may still grow).
    bool complete() const;
    // The top-level value is closed: nothing may follow.
    bool finished() const;
    // Inside a string, between characters: any run of plain characters (no quote, backslash or
    // control character; whole UTF-8 sequences) of at most `remainingChars` code points is
    // accepted. Returns false outside such a state.
    bool inPlainText(int& remainingChars) const;

private:
    enum class Kind : uint8_t { Root, Value, Object, Array, String, Key, Number, Literal };
    enum class Outcome : uint8_t { Reject, Consumed, Refeed };

    // Escape and UTF-8 progress inside a string (shared by value strings and object keys).
    struct TextState {
        uint8_t escape = 0;     // 0 none, 1 after '\', 2..5: next \u hex digit is number escape-2
        uint8_t utf8Need = 0;   // continuation bytes still expected
        uint8_t utf8Lo = 0x80, utf8Hi = 0xBF;  // allowed range of the next continuation byte
        uint8_t surrogate = 0;  // 1: a high surrogate escape needs its '\' 'u' low half; 2: reading it
        uint16_t hex = 0;
        bool plain() const { return escape == 0 && utf8Need == 0 && surrogate == 0; }
    };

    struct Frame {
        Kind kind = Kind::Root;
        uint8_t phase = 0;
        int32_t node = 0;   // schema node; Literal: node, or kBoolLiterals / kNullLiteral
        int32_t count = 0;  // Array: items; String: code points; Key/Literal: bytes; Number: length
        int32_t property = -1;  // Object: property of the value being read (-1: additional)
        uint8_t exponentDigits = 0;  // Number
        TextState text;
        uint64_t bits[4] = {0, 0, 0, 0};  // Object: properties seen; Key/Literal: candidates alive
    };

    enum class StringByte : uint8_t { Reject, Partial, Char, Close };

    Outcome feedFrame(Frame& f, uint8_t c);
    Outcome feedRoot(Frame& f, uint8_t c);
    Outcome feedValue(Frame& f, uint8_t c);
    Outcome feedObject(Frame& f, uint8_t c);
    Outcome feedArray(Frame& f, uint8_t c);
    Outcome feedString(Frame& f, uint8_t c);
    Outcome feedKey(Frame& f, uint8_t c);
    Outcome feedNumber(Frame& f, uint8_t c);
    Outcome feedLiteral(Frame& f, uint8_t c);
    static StringByte stringByte(TextState& t, uint8_t c);

    bool push(const Frame& f);
    void valueDone();  // pops the finished value and advances its container
    bool takeWhitespace(uint8_t c);
    bool canAddKey(const Frame& object) const;
    bool requiredMet(const Frame& object) const;
    bool numberAccepting(const Frame& f) const;
    bool literalExact(const Frame& f) const;
    const std::vector<std::string>& literalsOf(const Frame& f) const;
    const SchemaNode& nodeOf(const Frame& f) const { return schema_->nodes[static_cast<size_t>(f.node)]; }

    const CompiledSchema* schema_;
    std::vector<Frame> stack_;
    int wsRun_ = 0;         // whitespace bytes since the last other byte
    bool wsNewline_ = false;  // the current run started with a newline
};

}  // namespace hearth::constraint
