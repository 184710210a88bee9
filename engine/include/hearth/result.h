#pragma once
// Errors as values across the engine boundary (no exceptions cross it).
//
// Invariants: a Result<T> holds exactly one of a T or an Error; an Error always has a code other
// than ErrorCode::Ok and a message that names what failed (the key, the tensor, the file, ...).

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace hearth {

enum class ErrorCode : int32_t {
    Ok = 0,
    // files and formats
    IoError,            // open/read/mmap/write failed
    Truncated,          // the file ends before a structure it declares
    BadMagic,           // not a GGUF file
    UnsupportedVersion, // GGUF version we cannot read
    Corrupt,            // a count/length/offset that cannot be true for this file
    UnknownTensorType,  // a ggml type id we do not know
    MissingKey,         // a required metadata key is absent
    BadKeyType,         // a metadata key has the wrong value type
    UnsupportedArch,    // general.architecture we cannot run
    MissingTensor,      // a required tensor is absent
    BadTensorShape,     // a tensor's shape or type does not fit the model
    // inputs
    InvalidArgument,
    TemplateError,      // chat template parse/render failure
    TokenizerError,
    // runtime
    OutOfMemory,
    ContextOverflow,    // a request that can never fit the context or the KV memory
    Cancelled,
    Unavailable,        // device or backend not present
    Internal,
};

const char* errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;

    std::string toString() const { return std::string(errorCodeName(code)) + ": " + message; }
};

inline Error makeError(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

// Result<void>: success or an Error.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : error_(std::move(error)), ok_(false) {}
    static Status success() { return Status(); }

    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const { return error_; }

private:
    Error error_{ErrorCode::Ok, {}};
    bool ok_ = true;
};

}  // namespace hearth

// Propagate an error from an expression yielding Status or Result<T>.
#define HEARTH_TRY(expr)                                       \
    do {                                                       \
        auto&& _hearth_r = (expr);                             \
        if (!_hearth_r.ok()) return _hearth_r.error();         \
    } while (0)
