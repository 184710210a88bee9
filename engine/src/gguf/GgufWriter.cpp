#include "gguf/GgufWriter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

namespace hearth {
namespace {

void put(std::vector<uint8_t>& b, const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    b.insert(b.end(), c, c + n);
}
template <class T>
void putT(std::vector<uint8_t>& b, T v) { put(b, &v, sizeof(T)); }
void putString(std::vector<uint8_t>& b, const std::string& s) {
    putT<uint64_t>(b, s.size());
    put(b, s.data(), s.size());
}

void putValue(std::vector<uint8_t>& b, const GgufValue& v, bool withType) {
    if (withType) putT<uint32_t>(b, static_cast<uint32_t>(v.type()));
    switch (v.type()) {
        case GgufType::U8: putT<uint8_t>(b, static_cast<uint8_t>(v.rawU())); break;
        case GgufType::I8: putT<int8_t>(b, static_cast<int8_t>(v.rawI())); break;
        case GgufType::U16: putT<uint16_t>(b, static_cast<uint16_t>(v.rawU())); break;
        case GgufType::I16: putT<int16_t>(b, static_cast<int16_t>(v.rawI())); break;
        case GgufType::U32: putT<uint32_t>(b, static_cast<uint32_t>(v.rawU())); break;
        case GgufType::I32: putT<int32_t>(b, static_cast<int32_t>(v.rawI())); break;
        case GgufType::U64: putT<uint64_t>(b, v.rawU()); break;
        case GgufType::I64: putT<int64_t>(b, v.rawI()); break;
        case GgufType::F32: putT<float>(b, static_cast<float>(v.rawF())); break;
        case GgufType::F64: putT<double>(b, v.rawF()); break;
        case GgufType::Bool: putT<uint8_t>(b, v.rawU() ? 1 : 0); break;
        case GgufType::String: putString(b, *v.asString()); break;
        case GgufType::Array: {
            putT<uint32_t>(b, static_cast<uint32_t>(v.arrayType()));
            putT<uint64_t>(b, v.asArray()->size());
            for (const auto& item : *v.asArray()) putValue(b, item, false);
            break;
        }
    }
}

uint64_t alignUp(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

}  // namespace

Status GgufWriter::setMetadata(const std::string& key, GgufValue value) {
    if (key == "general.alignment") {
        auto a = value.asU64();
        if (!a || *a == 0 || (*a & (*a - 1)))
            return makeError(ErrorCode::InvalidArgument, "general.alignment must be a power of two");
        if (!tensors_.empty())
            return makeError(ErrorCode::InvalidArgument, "general.alignment must be set before tensors are added");
        alignment_ = static_cast<uint32_t>(*a);
        value = GgufValue::u32(alignment_);
    }
    for (auto& kv : kv_)
        if (kv.first == key) { kv.second = std::move(value); return Status::success(); }
    kv_.emplace_back(key, std::move(value));
    return Status::success();
}

Status GgufWriter::addTensor(const std::string& name, TensorType type, std::vector<uint64_t> dims, DataSource source) {
    for (const auto& t : tensors_)
        if (t.name == name) return makeError(ErrorCode::InvalidArgument, "duplicate tensor name '" + name + "'");
    if (dims.empty() || dims.size() > 4)
        return makeError(ErrorCode::InvalidArgument, "tensor '" + name + "' must have 1..4 dims");
    uint64_t elems = 1;
    for (auto d : dims) {
        if (d == 0) return makeError(ErrorCode::InvalidArgument, "tensor '" + name + "' has a zero dimension");
        elems *= d;
    }
    auto row = rowBytes(type, dims[0]);
    if (!row)
        return makeError(ErrorCode::InvalidArgument, "tensor '" + name + "' row length " + std::to_string(dims[0]) +
                                                         " is not a multiple of the " +
                                                         std::string(tensorTypeName(type)) + " block size");
    const uint64_t bytes = *row * (elems / dims[0]);
    Tensor t{name, type, std::move(dims), bytes, alignUp(dataSize_, alignment_), std::move(source)};
    dataSize_ = t.offset + bytes;
    tensors_.push_back(std::move(t));
    return Status::success();
}

Status GgufWriter::addTensor(const std::string& name, TensorType type, std::vector<uint64_t> dims,
                             std::vector<uint8_t> bytes) {
    auto shared = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
    const size_t n = shared->size();
    auto st = addTensor(name, type, std::move(dims), [shared](std::vector<uint8_t>& out) {
        out = *shared;
        return Status::success();
    });
    if (!st) return st;
    if (tensors_.back().byteSize != n) {
        const std::string msg = "tensor '" + name + "' has " + std::to_string(n) + " bytes, its shape needs " +
                                std::to_string(tensors_.back().byteSize);
        dataSize_ = tensors_.size() > 1 ? tensors_[tensors_.size() - 2].offset + tensors_[tensors_.size() - 2].byteSize : 0;
        tensors_.pop_back();
        return makeError(ErrorCode::InvalidArgument, msg);
    }
    return Status::success();
}

std::vector<uint8_t> GgufWriter::headerBytes() const {
    std::vector<uint8_t> b;
    putT<uint32_t>(b, 0x46554747);
    putT<uint32_t>(b, 3);
    putT<uint64_t>(b, tensors_.size());
    putT<uint64_t>(b, kv_.size());
    for (const auto& [k, v] : kv_) {
        putString(b, k);
        putValue(b, v, true);
    }
    for (const auto& t : tensors_) {
        putString(b, t.name);
        putT<uint32_t>(b, static_cast<uint32_t>(t.dims.size()));
        for (auto d : t.dims) putT<uint64_t>(b, d);
        putT<uint32_t>(b, static_cast<uint32_t>(t.type));
        putT<uint64_t>(b, t.offset);
    }
    b.resize(alignUp(b.size(), alignment_), 0);
    return b;
}

Status GgufWriter::write(const std::string& path) const {
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return makeError(ErrorCode::IoError, "cannot create '" + tmp + "': " + std::strerror(errno));
    auto fail = [&](const std::string& what) {
        const std::string msg = what + " '" + tmp + "': " + std::strerror(errno);
        std::fclose(f);
        std::remove(tmp.c_str());
        return makeError(ErrorCode::IoError, msg);
    };
    const auto header = headerBytes();
    if (std::fwrite(header.data(), 1, header.size(), f) != header.size()) return fail("cannot write");
    uint64_t written = 0;
    std::vector<uint8_t> buf;
    const std::vector<uint8_t> zeros(alignment_, 0);
    for (const auto& t : tensors_) {
        if (t.offset > written) {
            if (std::fwrite(zeros.data(), 1, t.offset - written, f) != t.offset - written) return fail("cannot write");
            written = t.offset;
        }
        buf.clear();
        auto st = t.source(buf);
        if (!st) {
            std::fclose(f);
            std::remove(tmp.c_str());
            return st;
        }
        if (buf.size() != t.byteSize) {
            std::fclose(f);
            std::remove(tmp.c_str());
            return makeError(ErrorCode::Internal, "tensor '" + t.name + "' produced " + std::to_string(buf.size()) +
                                                      " bytes, expected " + std::to_string(t.byteSize));
        }
        if (std::fwrite(buf.data(), 1, buf.size(), f) != buf.size()) return fail("cannot write");
        written += buf.size();
    }
    if (std::fflush(f) != 0 || ::fsync(fileno(f)) != 0) return fail("cannot flush");
    if (std::fclose(f) != 0) {
        std::remove(tmp.c_str());
        return makeError(ErrorCode::IoError, "cannot close '" + tmp + "': " + std::strerror(errno));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string msg = "cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno);
        std::remove(tmp.c_str());
        return makeError(ErrorCode::IoError, msg);
    }
    return Status::success();
}

}  // namespace hearth
