#include "tokenizer/TokenizerImpl.h"

#include <algorithm>

#include "tokenizer/ByteLevelAlphabet.h"
#include "tokenizer/Utf8.h"

namespace hearth {
namespace {

// Token texts that end a turn in the chat formats we know; found by text because GGUF files
// and tokenizer.json rarely list them all as eos.
constexpr const char* kEndOfTurnTexts[] = {
    "<|eot_id|>", "<|eom_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
    "<|end_of_text|>", "<|return|>", "<|call|>", "<EOT>", "<|END_OF_TURN_TOKEN|>", "<｜end▁of▁sentence｜>",
    "<eos>", "</s>",
};

uint64_t fnv(uint64_t h, std::string_view s) {
    for (char c : s) {
        h ^= static_cast<uint8_t>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

}  // namespace

bool Tokenizer::isEndOfGeneration(TokenId id) const {
    const auto& v = endOfGeneration();
    return std::binary_search(v.begin(), v.end(), id);
}

Result<std::shared_ptr<const Tokenizer>> TokenizerImpl::create(TokenizerParts parts) {
    if (!parts.vocab || !parts.model || parts.vocab->size() == 0)
        return makeError(ErrorCode::TokenizerError, "tokenizer has no vocabulary");
    const Vocab& v = *parts.vocab;
    if (!v.contains(parts.bos)) parts.bos = -1;
    if (!v.contains(parts.eos)) parts.eos = -1;

    std::shared_ptr<TokenizerImpl> t(new TokenizerImpl(std::move(parts)));
    const TokenizerParts& p = t->parts_;

    t->decoded_.resize(static_cast<size_t>(v.size()));
    for (TokenId id = 0; id < v.size(); ++id) t->decoded_[static_cast<size_t>(id)] = t->decodePiece(id);

    auto& eog = t->eog_;
    for (TokenId id : p.endOfGeneration)
        if (v.contains(id)) eog.push_back(id);
    if (p.eos >= 0) eog.push_back(p.eos);
    for (const char* text : kEndOfTurnTexts) {
        const TokenId id = v.find(text);
        if (id >= 0 && (v.type(id) == TokenType::Control || v.type(id) == TokenType::UserDefined)) eog.push_back(id);
    }
    std::sort(eog.begin(), eog.end());
    eog.erase(std::unique(eog.begin(), eog.end()), eog.end());

    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv(h, p.kind);
    for (TokenId id = 0; id < v.size(); ++id) {
        h = fnv(h, v.piece(id));
        h ^= static_cast<uint8_t>(v.type(id)) + 0x100;
        h *= 0x100000001b3ULL;
    }
    t->fingerprint_ = p.model->fingerprint(h);
    return std::shared_ptr<const Tokenizer>(std::move(t));
}

std::vector<TokenId> TokenizerImpl::encode(std::string_view rawText, TokenizeOptions opts) const {
    std::vector<TokenId> ids;
    if (opts.addSpecial && addsBos()) ids.push_back(parts_.bos);

    const std::string text = utf8::sanitize(rawText);
    std::vector<AddedTokenSplitter::Fragment> fragments;
    parts_.added.split(text, opts.parseSpecial, fragments);

    std::vector<std::string_view> pieces;
    for (size_t k = 0; k < fragments.size(); ++k) {
        const auto& f = fragments[k];
        if (f.id >= 0) {
            ids.push_back(f.id);
            continue;
        }
        const std::string normalized = parts_.normalizer.empty() ? std::string(f.text) : parts_.normalizer.apply(f.text, k);
        pieces.clear();
        parts_.preTokenizer.split(normalized, pieces);
        for (std::string_view piece : pieces) parts_.model->encodePiece(piece, ids);
    }

    if (opts.addSpecial && addsEos()) ids.push_back(parts_.eos);
    return ids;
}

bool TokenizerImpl::isSpecial(TokenId id) const {
    const TokenType t = parts_.vocab->type(id);
    return t == TokenType::Control || t == TokenType::Unknown || t == TokenType::Unused;
}

std::string TokenizerImpl::decodePiece(TokenId id) const {
    const Vocab& v = *parts_.vocab;
    const std::string& piece = v.piece(id);
    switch (v.type(id)) {
    case TokenType::Control:
    case TokenType::Unknown:
    case TokenType::UserDefined:
    case TokenType::Unused:
        return piece;  // added tokens are stored as plain text in every format we read
    case TokenType::Byte:
        if (piece.size() == 6 && piece.starts_with("<0x") && piece.back() == '>')
            return std::string(1, static_cast<char>(std::stoi(piece.substr(3, 2), nullptr, 16)));
        return piece;
    default: break;
    }
    switch (parts_.decoding) {
    case PieceDecoding::ByteLevel: return ByteLevelAlphabet::instance().decode(piece);
    case PieceDecoding::SentencePiece: {
        std::string out;
        out.reserve(piece.size());
        static constexpr std::string_view kSpace = "\xE2\x96\x81";  // U+2581
        for (size_t i = 0; i < piece.size();) {
            if (piece.compare(i, kSpace.size(), kSpace) == 0) {
                out += ' ';
                i += kSpace.size();
            } else {
                out += piece[i++];
            }
        }
        return out;
    }
    case PieceDecoding::WordPiece:
        if (!parts_.wordStartPrefix.empty()) {
            if (piece.starts_with(parts_.wordStartPrefix)) return " " + piece.substr(parts_.wordStartPrefix.size());
            return piece;
        }
        if (!parts_.continuingPrefix.empty() && piece.starts_with(parts_.continuingPrefix))
            return piece.substr(parts_.continuingPrefix.size());
        return " " + piece;
    }
    return piece;
}

std::string TokenizerImpl::tokenPiece(TokenId id) const {
    if (!parts_.vocab->contains(id)) return {};
    return decoded_[static_cast<size_t>(id)];
}

std::string TokenizerImpl::decode(std::span<const TokenId> ids, bool skipSpecial) const {
    std::string out;
    for (TokenId id : ids) {
        if (!parts_.vocab->contains(id)) continue;
        if (skipSpecial && isSpecial(id)) continue;
        out += decoded_[static_cast<size_t>(id)];
    }
    return out;
}

TokenId TokenizerImpl::findSpecial(std::string_view text) const {
    const TokenId id = parts_.vocab->find(text);
    if (id < 0) return -1;
    const TokenType t = parts_.vocab->type(id);
    return t == TokenType::Control || t == TokenType::UserDefined || t == TokenType::Unknown ? id : -1;
}

std::string TokenizerImpl::bosText() const { return parts_.bos >= 0 ? parts_.vocab->piece(parts_.bos) : std::string(); }
std::string TokenizerImpl::eosText() const { return parts_.eos >= 0 ? parts_.vocab->piece(parts_.eos) : std::string(); }

}  // namespace hearth
