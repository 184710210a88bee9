#pragma once
// One GGUF metadata value: a scalar, a string, or an array (arrays may nest).
//
// Invariants: type() names exactly which member is meaningful; for an array, every element has
// type arrayType() (GGUF arrays are homogeneous), and nested arrays each carry their own arrayType.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hearth {

enum class GgufType : uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, Bool = 7, String = 8, Array = 9,
    U64 = 10, I64 = 11, F64 = 12,
};
const char* ggufTypeName(GgufType t);
bool ggufTypeKnown(uint32_t raw);

class GgufValue {
public:
    GgufValue() = default;
    static GgufValue u8(uint8_t v) { return scalarU(GgufType::U8, v); }
    static GgufValue i8(int8_t v) { return scalarI(GgufType::I8, v); }
    static GgufValue u16(uint16_t v) { return scalarU(GgufType::U16, v); }
    static GgufValue i16(int16_t v) { return scalarI(GgufType::I16, v); }
    static GgufValue u32(uint32_t v) { return scalarU(GgufType::U32, v); }
    static GgufValue i32(int32_t v) { return scalarI(GgufType::I32, v); }
    static GgufValue u64(uint64_t v) { return scalarU(GgufType::U64, v); }
    static GgufValue i64(int64_t v) { return scalarI(GgufType::I64, v); }
    static GgufValue f32(float v) { GgufValue x; x.type_ = GgufType::F32; x.f_ = v; return x; }
    static GgufValue f64(double v) { GgufValue x; x.type_ = GgufType::F64; x.f_ = v; return x; }
    static GgufValue boolean(bool v) { GgufValue x; x.type_ = GgufType::Bool; x.u_ = v; return x; }
    static GgufValue string(std::string v) { GgufValue x; x.type_ = GgufType::String; x.s_ = std::move(v); return x; }
    static GgufValue array(GgufType elemType, std::vector<GgufValue> items) {
        GgufValue x; x.type_ = GgufType::Array; x.elemType_ = elemType; x.items_ = std::move(items); return x;
    }
    static GgufValue stringArray(const std::vector<std::string>& v);
    static GgufValue f32Array(const std::vector<float>& v);
    static GgufValue i32Array(const std::vector<int32_t>& v);

    GgufType type() const { return type_; }
    GgufType arrayType() const { return elemType_; }
    bool isInteger() const;
    bool isFloat() const { return type_ == GgufType::F32 || type_ == GgufType::F64; }

    // Numeric views: nullopt when the value is not numeric or does not fit.
    std::optional<uint64_t> asU64() const;
    std::optional<int64_t> asI64() const;
    std::optional<double> asF64() const;  // integers convert too
    std::optional<bool> asBool() const { if (type_ == GgufType::Bool) return u_ != 0; return std::nullopt; }
    const std::string* asString() const { return type_ == GgufType::String ? &s_ : nullptr; }
    const std::vector<GgufValue>* asArray() const { return type_ == GgufType::Array ? &items_ : nullptr; }

    // Raw storage (for the writer and for copying values between files).
    uint64_t rawU() const { return u_; }
    int64_t rawI() const { return i_; }
    double rawF() const { return f_; }

    // Human-readable, for `info` and error messages; long arrays are summarised.
    std::string toDisplayString(size_t maxItems = 8) const;

private:
    static GgufValue scalarU(GgufType t, uint64_t v) { GgufValue x; x.type_ = t; x.u_ = v; return x; }
    static GgufValue scalarI(GgufType t, int64_t v) { GgufValue x; x.type_ = t; x.i_ = v; return x; }

    GgufType type_ = GgufType::U8;
    GgufType elemType_ = GgufType::U8;
    uint64_t u_ = 0;
    int64_t i_ = 0;
    double f_ = 0;
    std::string s_;
    std::vector<GgufValue> items_;
};

}  // namespace hearth
