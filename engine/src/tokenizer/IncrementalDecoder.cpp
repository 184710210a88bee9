// IncrementalDecoder (declared in hearth/tokenizer.h): holds the bytes of a character that is
// still arriving, so every string it returns is valid UTF-8.
#include "hearth/tokenizer.h"
#include "tokenizer/Utf8.h"

namespace hearth {

std::string IncrementalDecoder::push(TokenId id) {
    first_ = false;
    pending_ += tok_->tokenPiece(id);
    const size_t n = utf8::completePrefix(pending_);
    if (n == 0) return {};
    std::string out = utf8::sanitize(std::string_view(pending_).substr(0, n));
    pending_.erase(0, n);
    return out;
}

std::string IncrementalDecoder::finish() {
    std::string out = utf8::sanitize(pending_);  // an unfinished character becomes U+FFFD
    pending_.clear();
    first_ = true;
    return out;
}

}  // namespace hearth
