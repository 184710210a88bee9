#include "hearth/result.h"

namespace hearth {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
        case ErrorCode::Ok: return "ok";
        case ErrorCode::IoError: return "io_error";
        case ErrorCode::Truncated: return "truncated";
        case ErrorCode::BadMagic: return "bad_magic";
        case ErrorCode::UnsupportedVersion: return "unsupported_version";
        case ErrorCode::Corrupt: return "corrupt";
        case ErrorCode::UnknownTensorType: return "unknown_tensor_type";
        case ErrorCode::MissingKey: return "missing_key";
        case ErrorCode::BadKeyType: return "bad_key_type";
        case ErrorCode::UnsupportedArch: return "unsupported_architecture";
        case ErrorCode::MissingTensor: return "missing_tensor";
        case ErrorCode::BadTensorShape: return "bad_tensor_shape";
        case ErrorCode::InvalidArgument: return "invalid_argument";
        case ErrorCode::TemplateError: return "template_error";
        case ErrorCode::TokenizerError: return "tokenizer_error";
        case ErrorCode::OutOfMemory: return "out_of_memory";
        case ErrorCode::ContextOverflow: return "context_overflow";
        case ErrorCode::Cancelled: return "cancelled";
        case ErrorCode::Unavailable: return "unavailable";
        case ErrorCode::Internal: return "internal";
    }
    return "unknown";
}

}  // namespace hearth
