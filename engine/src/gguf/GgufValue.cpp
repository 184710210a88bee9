#include "gguf/GgufValue.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace hearth {

const char* ggufTypeName(GgufType t) {
    switch (t) {
        case GgufType::U8: return "u8";
        case GgufType::I8: return "i8";
        case GgufType::U16: return "u16";
        case GgufType::I16: return "i16";
        case GgufType::U32: return "u32";
        case GgufType::I32: return "i32";
        case GgufType::F32: return "f32";
        case GgufType::Bool: return "bool";
        case GgufType::String: return "string";
        case GgufType::Array: return "array";
        case GgufType::U64: return "u64";
        case GgufType::I64: return "i64";
        case GgufType::F64: return "f64";
    }
    return "unknown";
}

bool ggufTypeKnown(uint32_t raw) { return raw <= 12; }

GgufValue GgufValue::stringArray(const std::vector<std::string>& v) {
    std::vector<GgufValue> items;
    items.reserve(v.size());
    for (const auto& s : v) items.push_back(string(s));
    return array(GgufType::String, std::move(items));
}

GgufValue GgufValue::f32Array(const std::vector<float>& v) {
    std::vector<GgufValue> items;
    items.reserve(v.size());
    for (float f : v) items.push_back(f32(f));
    return array(GgufType::F32, std::move(items));
}

GgufValue GgufValue::i32Array(const std::vector<int32_t>& v) {
    std::vector<GgufValue> items;
    items.reserve(v.size());
    for (int32_t x : v) items.push_back(i32(x));
    return array(GgufType::I32, std::move(items));
}

bool GgufValue::isInteger() const {
    switch (type_) {
        case GgufType::U8: case GgufType::I8: case GgufType::U16: case GgufType::I16:
        case GgufType::U32: case GgufType::I32: case GgufType::U64: case GgufType::I64:
            return true;
        default:
            return false;
    }
}

static bool isSigned(GgufType t) {
    return t == GgufType::I8 || t == GgufType::I16 || t == GgufType::I32 || t == GgufType::I64;
}

std::optional<uint64_t> GgufValue::asU64() const {
    if (!isInteger()) return std::nullopt;
    if (isSigned(type_)) {
        if (i_ < 0) return std::nullopt;
        return static_cast<uint64_t>(i_);
    }
    return u_;
}

std::optional<int64_t> GgufValue::asI64() const {
    if (!isInteger()) return std::nullopt;
    if (isSigned(type_)) return i_;
    if (u_ > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u_);
}

std::optional<double> GgufValue::asF64() const {
    if (isFloat()) return f_;
    if (isInteger()) return isSigned(type_) ? static_cast<double>(i_) : static_cast<double>(u_);
    return std::nullopt;
}

std::string GgufValue::toDisplayString(size_t maxItems) const {
    std::ostringstream os;
    switch (type_) {
        case GgufType::String: os << '"' << s_ << '"'; break;
        case GgufType::Bool: os << (u_ ? "true" : "false"); break;
        case GgufType::F32: case GgufType::F64: os << f_; break;
        case GgufType::Array: {
            os << '[';
            for (size_t i = 0; i < items_.size() && i < maxItems; ++i) {
                if (i) os << ", ";
                os << items_[i].toDisplayString(maxItems);
            }
            if (items_.size() > maxItems) os << ", ... (" << items_.size() << " items)";
            os << ']';
            break;
        }
        default:
            if (isSigned(type_)) os << i_; else os << u_;
    }
    return os.str();
}

}  // namespace hearth
