#include "gguf/GgufFile.h"

#include <cstring>
#include <limits>

namespace hearth {
namespace {

constexpr uint32_t kMagic = 0x46554747;          // "GGUF" little-endian
constexpr uint32_t kMagicSwapped = 0x47475546;   // a big-endian GGUF
constexpr uint32_t kMaxDims = 4;
constexpr uint32_t kMaxArrayDepth = 8;
// Guard against a hostile file making us allocate far more than it occupies: real files have a
// few million metadata items at most (vocab tokens, scores, types, merges).
constexpr uint64_t kMaxMetadataItems = 16ull << 20;
constexpr uint64_t kMaxNameLength = 1u << 16;

bool mulOverflow(uint64_t a, uint64_t b, uint64_t* out) { return __builtin_mul_overflow(a, b, out); }
bool addOverflow(uint64_t a, uint64_t b, uint64_t* out) { return __builtin_add_overflow(a, b, out); }

// Bounded little-endian reader over the mapped bytes; every read is checked before it happens.
class Cursor {
public:
    Cursor(const uint8_t* data, uint64_t size) : data_(data), size_(size) {}
    uint64_t pos() const { return pos_; }
    uint64_t remaining() const { return size_ - pos_; }

    template <class T>
    bool read(T* out) {
        if (remaining() < sizeof(T)) return false;
        std::memcpy(out, data_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return true;
    }
    bool readBytes(uint64_t n, std::string* out) {
        if (remaining() < n) return false;
        out->assign(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(n));
        pos_ += n;
        return true;
    }

private:
    const uint8_t* data_;
    uint64_t size_;
    uint64_t pos_ = 0;
};

class Parser {
public:
    Parser(Cursor& c, const std::string& file, uint32_t version) : c_(c), file_(file), version_(version) {}

    Error truncated(const std::string& what) const {
        return makeError(ErrorCode::Truncated, file_ + ": file ends inside " + what + " (at byte " +
                                                   std::to_string(c_.pos()) + ")");
    }
    Error corrupt(const std::string& what) const {
        return makeError(ErrorCode::Corrupt, file_ + ": " + what + " (at byte " + std::to_string(c_.pos()) + ")");
    }

    Result<uint64_t> readCount(const std::string& what) {
        if (version_ == 1) {
            uint32_t n;
            if (!c_.read(&n)) return truncated(what);
            return static_cast<uint64_t>(n);
        }
        uint64_t n;
        if (!c_.read(&n)) return truncated(what);
        return n;
    }

    Result<std::string> readString(const std::string& what, uint64_t maxLen = std::numeric_limits<uint64_t>::max()) {
        auto n = readCount("the length of " + what);
        if (!n) return n.error();
        if (*n > maxLen) return corrupt(what + " has an impossible length " + std::to_string(*n));
        if (*n > c_.remaining())
            return truncated(what + " (claims " + std::to_string(*n) + " bytes, " + std::to_string(c_.remaining()) +
                             " left)");
        std::string s;
        c_.readBytes(*n, &s);
        return s;
    }

    Result<GgufValue> readValue(uint32_t rawType, const std::string& key, uint32_t depth) {
        if (!ggufTypeKnown(rawType))
            return corrupt("metadata key '" + key + "' has unknown value type " + std::to_string(rawType));
        const auto t = static_cast<GgufType>(rawType);
        switch (t) {
            case GgufType::U8: { uint8_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::u8(v); }
            case GgufType::I8: { int8_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::i8(v); }
            case GgufType::U16: { uint16_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::u16(v); }
            case GgufType::I16: { int16_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::i16(v); }
            case GgufType::U32: { uint32_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::u32(v); }
            case GgufType::I32: { int32_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::i32(v); }
            case GgufType::U64: { uint64_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::u64(v); }
            case GgufType::I64: { int64_t v; if (!c_.read(&v)) return truncated(key); return GgufValue::i64(v); }
            case GgufType::F32: { float v; if (!c_.read(&v)) return truncated(key); return GgufValue::f32(v); }
            case GgufType::F64: { double v; if (!c_.read(&v)) return truncated(key); return GgufValue::f64(v); }
            case GgufType::Bool: {
                uint8_t v;
                if (!c_.read(&v)) return truncated(key);
                if (v > 1) return corrupt("metadata key '" + key + "' has a bool that is " + std::to_string(v));
                return GgufValue::boolean(v != 0);
            }
            case GgufType::String: {
                auto s = readString("the value of '" + key + "'");
                if (!s) return s.error();
                return GgufValue::string(std::move(*s));
            }
            case GgufType::Array: return readArray(key, depth);
        }
        return corrupt("unreachable value type");
    }

    Result<GgufValue> readArray(const std::string& key, uint32_t depth) {
        if (depth >= kMaxArrayDepth) return corrupt("metadata key '" + key + "' nests arrays too deeply");
        uint32_t elemRaw;
        if (!c_.read(&elemRaw)) return truncated("the array type of '" + key + "'");
        if (!ggufTypeKnown(elemRaw))
            return corrupt("metadata key '" + key + "' is an array of unknown type " + std::to_string(elemRaw));
        auto n = readCount("the array length of '" + key + "'");
        if (!n) return n.error();
        // Each element occupies at least this many bytes, so the count cannot exceed remaining / min.
        const auto elem = static_cast<GgufType>(elemRaw);
        uint64_t minBytes = 1;
        switch (elem) {
            case GgufType::U16: case GgufType::I16: minBytes = 2; break;
            case GgufType::U32: case GgufType::I32: case GgufType::F32: minBytes = 4; break;
            case GgufType::U64: case GgufType::I64: case GgufType::F64: minBytes = 8; break;
            case GgufType::String: minBytes = version_ == 1 ? 4 : 8; break;
            case GgufType::Array: minBytes = version_ == 1 ? 8 : 12; break;
            default: minBytes = 1;
        }
        if (*n > c_.remaining() / minBytes)
            return truncated("the array '" + key + "' (claims " + std::to_string(*n) + " items)");
        items_ += *n;
        if (items_ > kMaxMetadataItems)
            return corrupt("metadata holds more than " + std::to_string(kMaxMetadataItems) + " array items");
        std::vector<GgufValue> items;
        items.reserve(static_cast<size_t>(*n));
        for (uint64_t i = 0; i < *n; ++i) {
            auto v = readValue(elemRaw, key, depth + 1);
            if (!v) return v.error();
            items.push_back(std::move(*v));
        }
        return GgufValue::array(elem, std::move(items));
    }

private:
    Cursor& c_;
    const std::string& file_;
    uint32_t version_;
    uint64_t items_ = 0;
};

}  // namespace

uint64_t GgufTensorInfo::elements() const {
    uint64_t n = 1;
    for (auto d : dims) n *= d;
    return n;
}

uint64_t GgufTensorInfo::rows() const {
    uint64_t n = 1;
    for (size_t i = 1; i < dims.size(); ++i) n *= dims[i];
    return n;
}

Result<std::shared_ptr<GgufFile>> GgufFile::open(const std::string& path) {
    auto m = MappedFile::open(path);
    if (!m) return m.error();
    std::shared_ptr<GgufFile> f(new GgufFile());
    f->map_ = *m;
    f->base_ = f->map_->data();
    f->size_ = f->map_->size();
    f->name_ = path;
    auto st = f->parseAll();
    if (!st) return st.error();
    return f;
}

Result<std::shared_ptr<GgufFile>> GgufFile::parse(const uint8_t* data, uint64_t size, std::string name) {
    std::shared_ptr<GgufFile> f(new GgufFile());
    f->base_ = data;
    f->size_ = size;
    f->name_ = std::move(name);
    auto st = f->parseAll();
    if (!st) return st.error();
    return f;
}

Status GgufFile::parseAll() {
    Cursor c(base_, size_);
    uint32_t magic;
    if (!c.read(&magic)) return makeError(ErrorCode::Truncated, name_ + ": file is shorter than a GGUF header");
    if (magic == kMagicSwapped)
        return makeError(ErrorCode::UnsupportedVersion, name_ + ": big-endian GGUF files are not supported");
    if (magic != kMagic) return makeError(ErrorCode::BadMagic, name_ + ": not a GGUF file (bad magic)");
    if (!c.read(&version_)) return makeError(ErrorCode::Truncated, name_ + ": file ends inside the GGUF version");
    if (version_ != 2 && version_ != 3)
        return makeError(ErrorCode::UnsupportedVersion,
                         name_ + ": GGUF version " + std::to_string(version_) + " is not supported (only 2 and 3)");
    Parser p(c, name_, version_);

    auto nTensors = p.readCount("the tensor count");
    if (!nTensors) return nTensors.error();
    auto nKv = p.readCount("the metadata count");
    if (!nKv) return nKv.error();
    // A key needs at least 8 (length) + 4 (type) + 1 bytes; a tensor info at least 8 + 4 + 8 + 4 + 8.
    if (*nKv > c.remaining() / 13)
        return makeError(ErrorCode::Corrupt, name_ + ": metadata count " + std::to_string(*nKv) +
                                                 " cannot fit in a file of " + std::to_string(size_) + " bytes");
    if (*nTensors > c.remaining() / 32)
        return makeError(ErrorCode::Corrupt, name_ + ": tensor count " + std::to_string(*nTensors) +
                                                 " cannot fit in a file of " + std::to_string(size_) + " bytes");

    kv_.reserve(static_cast<size_t>(*nKv));
    for (uint64_t i = 0; i < *nKv; ++i) {
        auto key = p.readString("metadata key #" + std::to_string(i), kMaxNameLength);
        if (!key) return key.error();
        uint32_t rawType;
        if (!c.read(&rawType)) return p.truncated("the type of metadata key '" + *key + "'");
        auto v = p.readValue(rawType, *key, 0);
        if (!v) return v.error();
        if (kvIndex_.count(*key)) return p.corrupt("duplicate metadata key '" + *key + "'");
        kvIndex_[*key] = kv_.size();
        kv_.emplace_back(std::move(*key), std::move(*v));
    }

    if (const GgufValue* a = find("general.alignment")) {
        auto al = a->asU64();
        if (!al || a->type() != GgufType::U32)
            return makeError(ErrorCode::BadKeyType, name_ + ": general.alignment must be a u32");
        if (*al == 0 || (*al & (*al - 1)) != 0 || *al > (1u << 20))
            return makeError(ErrorCode::Corrupt,
                             name_ + ": general.alignment " + std::to_string(*al) + " is not a power of two");
        alignment_ = static_cast<uint32_t>(*al);
    }

    tensors_.reserve(static_cast<size_t>(*nTensors));
    std::vector<uint64_t> relOffsets;
    relOffsets.reserve(static_cast<size_t>(*nTensors));
    for (uint64_t i = 0; i < *nTensors; ++i) {
        GgufTensorInfo t;
        auto name = p.readString("the name of tensor #" + std::to_string(i), kMaxNameLength);
        if (!name) return name.error();
        t.name = std::move(*name);
        uint32_t nDims;
        if (!c.read(&nDims)) return p.truncated("the dims of tensor '" + t.name + "'");
        if (nDims == 0 || nDims > kMaxDims)
            return p.corrupt("tensor '" + t.name + "' has " + std::to_string(nDims) + " dims (1..4 allowed)");
        uint64_t elems = 1;
        for (uint32_t d = 0; d < nDims; ++d) {
            uint64_t ne;
            if (version_ == 1) {
                uint32_t n32;
                if (!c.read(&n32)) return p.truncated("the shape of tensor '" + t.name + "'");
                ne = n32;
            } else if (!c.read(&ne)) {
                return p.truncated("the shape of tensor '" + t.name + "'");
            }
            if (ne == 0 || ne > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                return p.corrupt("tensor '" + t.name + "' has dimension " + std::to_string(d) + " = " + std::to_string(ne));
            if (mulOverflow(elems, ne, &elems))
                return p.corrupt("tensor '" + t.name + "' has a shape whose element count overflows");
            t.dims.push_back(ne);
        }
        uint32_t rawType;
        if (!c.read(&rawType)) return p.truncated("the type of tensor '" + t.name + "'");
        auto tr = tensorTypeTraits(rawType);
        if (!tr)
            return makeError(ErrorCode::UnknownTensorType, name_ + ": tensor '" + t.name + "' has unknown type id " +
                                                               std::to_string(rawType));
        t.type = static_cast<TensorType>(rawType);
        if (t.dims[0] % tr->blockSize != 0)
            return p.corrupt("tensor '" + t.name + "' has row length " + std::to_string(t.dims[0]) +
                             ", not a multiple of the " + std::string(tr->name) + " block size " +
                             std::to_string(tr->blockSize));
        uint64_t bytes;
        if (mulOverflow(elems / tr->blockSize, tr->typeSize, &bytes))
            return p.corrupt("tensor '" + t.name + "' byte size overflows");
        t.byteSize = bytes;
        uint64_t off;
        if (!c.read(&off)) return p.truncated("the offset of tensor '" + t.name + "'");
        if (off % alignment_ != 0)
            return p.corrupt("tensor '" + t.name + "' offset " + std::to_string(off) + " is not aligned to " +
                             std::to_string(alignment_));
        if (tensorIndex_.count(t.name)) return p.corrupt("duplicate tensor name '" + t.name + "'");
        tensorIndex_[t.name] = tensors_.size();
        relOffsets.push_back(off);
        tensors_.push_back(std::move(t));
    }

    // The data section starts at the next multiple of the alignment after the tensor infos.
    uint64_t pos = c.pos();
    uint64_t aligned;
    if (addOverflow(pos, alignment_ - 1, &aligned)) return p.corrupt("header size overflows");
    aligned = aligned / alignment_ * alignment_;
    dataOffset_ = aligned;
    if (tensors_.empty()) return Status::success();
    if (dataOffset_ > size_)
        return makeError(ErrorCode::Truncated, name_ + ": file ends before its tensor data section");
    for (size_t i = 0; i < tensors_.size(); ++i) {
        auto& t = tensors_[i];
        uint64_t start, end;
        if (addOverflow(dataOffset_, relOffsets[i], &start) || addOverflow(start, t.byteSize, &end))
            return makeError(ErrorCode::Corrupt, name_ + ": tensor '" + t.name + "' offset overflows");
        if (start > size_)
            return makeError(ErrorCode::Corrupt, name_ + ": tensor '" + t.name + "' offset " + std::to_string(start) +
                                                     " is past the end of the file (" + std::to_string(size_) + " bytes)");
        if (end > size_)
            return makeError(ErrorCode::Truncated,
                             name_ + ": tensor '" + t.name + "' data [" + std::to_string(start) + ", " +
                                 std::to_string(end) + ") runs past the end of the file (" + std::to_string(size_) +
                                 " bytes)");
        t.offset = start;
    }
    return Status::success();
}

const GgufValue* GgufFile::find(const std::string& key) const {
    auto it = kvIndex_.find(key);
    return it == kvIndex_.end() ? nullptr : &kv_[it->second].second;
}

const GgufTensorInfo* GgufFile::findTensor(const std::string& name) const {
    auto it = tensorIndex_.find(name);
    return it == tensorIndex_.end() ? nullptr : &tensors_[it->second];
}

Result<std::string> GgufFile::getString(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return makeError(ErrorCode::MissingKey, name_ + ": required key '" + key + "' is missing");
    if (!v->asString())
        return makeError(ErrorCode::BadKeyType, name_ + ": key '" + key + "' is " + ggufTypeName(v->type()) +
                                                    ", expected string");
    return *v->asString();
}

Result<uint64_t> GgufFile::getU64(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return makeError(ErrorCode::MissingKey, name_ + ": required key '" + key + "' is missing");
    auto u = v->asU64();
    if (!u)
        return makeError(ErrorCode::BadKeyType, name_ + ": key '" + key + "' is " + ggufTypeName(v->type()) +
                                                    ", expected a non-negative integer");
    return *u;
}

Result<double> GgufFile::getF64(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return makeError(ErrorCode::MissingKey, name_ + ": required key '" + key + "' is missing");
    auto d = v->asF64();
    if (!d)
        return makeError(ErrorCode::BadKeyType, name_ + ": key '" + key + "' is " + ggufTypeName(v->type()) +
                                                    ", expected a number");
    return *d;
}

Result<bool> GgufFile::getBool(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return makeError(ErrorCode::MissingKey, name_ + ": required key '" + key + "' is missing");
    auto b = v->asBool();
    if (!b)
        return makeError(ErrorCode::BadKeyType, name_ + ": key '" + key + "' is " + ggufTypeName(v->type()) +
                                                    ", expected bool");
    return *b;
}

std::string GgufFile::getStringOr(const std::string& key, std::string fallback) const {
    const GgufValue* v = find(key);
    return v && v->asString() ? *v->asString() : fallback;
}

uint64_t GgufFile::getU64Or(const std::string& key, uint64_t fallback) const {
    const GgufValue* v = find(key);
    auto u = v ? v->asU64() : std::nullopt;
    return u ? *u : fallback;
}

double GgufFile::getF64Or(const std::string& key, double fallback) const {
    const GgufValue* v = find(key);
    auto d = v ? v->asF64() : std::nullopt;
    return d ? *d : fallback;
}

bool GgufFile::getBoolOr(const std::string& key, bool fallback) const {
    const GgufValue* v = find(key);
    auto b = v ? v->asBool() : std::nullopt;
    return b ? *b : fallback;
}

}  // namespace hearth
